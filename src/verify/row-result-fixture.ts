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
    given: { line: row, state: state.toUpperCase(), license, business: "", address: "" },
    read: [],
    state,
    matched,
    verdict,
    reason: "",
    status: "",
    business: "",
    owner: "",
    expires: "",
    source: "",
    asOf: "",
    failed: false,
  };
}
