import type { RowResult } from "./verify-list.ts";

/** For tests: a row of a checked list, its number matched (or not) and its verdict, without a record's words. */
export function rowResult(
  row: number,
  state: string,
  license: string,
  matched: string,
  verdict: RowResult["verdict"],
): RowResult {
  return {
    row,
    stateGiven: state.toUpperCase(),
    state,
    license,
    matched,
    verdict,
    reason: "",
    status: "",
    business: "",
    owner: "",
    expires: "",
    source: "",
    asOf: "",
    alsoOnRows: [],
  };
}
