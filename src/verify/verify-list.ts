import { ApiError } from "../api/api-error.ts";
import { LicenseLists } from "../api/license-lists.ts";
import { loadDecodingTable } from "../contract/decoding/decode.ts";
import { MAX_BATCH, type Provenance, type StateCoverage } from "../contract/envelopes.ts";
import { licenseDates, type License } from "../contract/license.ts";
import { normalizeText, words } from "../contract/normalize-text.ts";
import { nearNumbers } from "../shared/near-numbers.ts";
import { recordAsOf, sourcesCover } from "../shared/record-source.ts";
import { licenseVerdict, notCoveredReason, notFoundReason, type VerdictWord } from "../contract/verdict.ts";
import type { ListRow } from "../shared/list-input.ts";
import { sameName } from "./same-name.ts";

/** One row of the list as checked: flat words and dates, to show, export and keep in the browser. */
export interface RowResult {
  row: number;
  stateGiven: string;
  /** The state's code, when the row names one. */
  state: string | null;
  /** The number as given. */
  license: string;
  /** The number of the record the verdict is about; "" when none was matched. */
  matched: string;
  verdict: VerdictWord;
  reason: string;
  /** The record's status as the state writes it. */
  status: string;
  business: string;
  owner: string;
  expires: string;
  /** The agency, and the date its data was true on ("" when the service does not say). */
  source: string;
  asOf: string;
  /** The other rows holding the same state and number: checked once, reported on each. */
  alsoOnRows: number[];
}

export interface VerifyProgress {
  /** In the list's order; undefined for rows not answered yet. */
  results: (RowResult | undefined)[];
  done: number;
  /** True once the service turned out to answer one license a request (no batch extension): slower. */
  oneByOne: boolean;
  /** Seconds the service asked to wait (a 429) while it is waited out; 0 otherwise. */
  waiting: number;
}

interface Options {
  /** Today where the clerk is, `YYYY-MM-DD`. */
  today: string;
  /** The states the key covers with their sources; null from a service that does not say. */
  coverage: StateCoverage[] | null;
  onProgress: (progress: VerifyProgress) => void;
  signal?: AbortSignal;
}

/**
 * The verdict of every row of a list, answered state by state in batches, reported as they come.
 * A row is never dropped and never failed for the service's pace; a number is matched exactly.
 */
export async function verifyList(rows: readonly ListRow[], { today, coverage, onProgress, signal }: Options) {
  const results: (RowResult | undefined)[] = rows.map(() => undefined);
  const lists = new LicenseLists(signal);
  let done = 0;
  let waiting = 0;
  const report = () => onProgress({ results: [...results], done, oneByOne: lists.oneByOne, waiting });
  lists.onWait = (seconds) => {
    waiting = seconds;
    report();
  };
  const settle = (indexes: readonly number[], answer: (row: ListRow) => Omit<RowResult, keyof RowOwn>) => {
    waiting = 0;
    for (const i of indexes) {
      const row = rows[i]!;
      const others = indexes.filter((j) => j !== i).map((j) => rows[j]!.row);
      results[i] = { ...own(row), ...answer(row), alsoOnRows: others };
      done += 1;
    }
  };

  // Rows that cannot be asked about as written, and states the service does not cover, are answered at once.
  const asked = new Map<string, { numbers: Map<string, number[]>; names: number[] }>();
  rows.forEach((row, i) => {
    if (row.problem !== null || row.state === null) {
      settle([i], () =>
        unanswered("check", sentence(row.problem ?? `“${row.stateGiven}” is not a state: write it as NY or New York`)),
      );
    } else if (coverage !== null && !coverage.some((c) => c.state === row.state)) {
      settle([i], () => unanswered("not covered", notCoveredReason(row.state!)));
    } else {
      const state = asked.get(row.state) ?? { numbers: new Map<string, number[]>(), names: [] as number[] };
      asked.set(row.state, state);
      if (row.license === "") state.names.push(i);
      else state.numbers.set(row.license, [...(state.numbers.get(row.license) ?? []), i]);
    }
  });
  // Progress is reported once a batch is in: one copy of the answers, one render, a batch at a time.
  report();

  for (const [state, { numbers, names }] of asked) {
    const decoding = await loadDecodingTable(state);
    const format = decoding?.number?.format ?? null;
    const verdictOf = (license: License, provenance: Provenance | null) =>
      licenseVerdict(license, { today, asOf: recordAsOf(provenance), decoding });
    try {
      const all = [...numbers.keys()];
      for (let start = 0; start < all.length; start += MAX_BATCH) {
        const part = all.slice(start, start + MAX_BATCH);
        const answer = await lists.numbers(state, part);
        // Numbers not held as written: the forms a clerk probably meant, asked in one go.
        const near = new Map<string, string[]>();
        part.forEach((number, k) => {
          if (answer.licenses[k] === null) near.set(number, nearNumbers(number, format));
        });
        const nearAsked = [...new Set([...near.values()].flat())];
        const nearFound = new Map<string, License>();
        if (nearAsked.length > 0) {
          const nearAnswer = await lists.numbers(state, nearAsked);
          nearAsked.forEach((n, k) => nearAnswer.licenses[k] && nearFound.set(n, nearAnswer.licenses[k]));
        }
        part.forEach((number, k) => {
          const license = answer.licenses[k] ?? null;
          const provenance = answer.provenance[k] ?? null;
          settle(numbers.get(number)!, (row) => {
            if (license) return found(row, license, provenance, verdictOf(license, provenance));
            const meant = (near.get(number) ?? []).filter((n) => nearFound.has(n));
            if (meant.length === 0) return unanswered("not found", notFound(state, coverage));
            const offers = meant.map((n) => `${n} (${nearFound.get(n)!.business || nearFound.get(n)!.owner})`);
            return unanswered("check", `Not found as written. Did you mean ${offers.join(" or ")}?`);
          });
        });
        report();
      }
      for (const i of names) {
        const row = rows[i]!;
        const candidates = (await lists.byName(state, row.business)).filter(
          (l) => sameName(row.business, l) && sameAddress(row.address, l),
        );
        if (candidates.length === 1) {
          const license = candidates[0]!;
          const [provenance = null] = (await lists.numbers(state, [license.license])).provenance;
          const verdict = verdictOf(license, provenance);
          settle([i], () => ({
            ...found(row, license, provenance, verdict),
            reason: `Matched by name. ${verdict.reason}`,
          }));
        } else if (candidates.length === 0) {
          settle([i], () => unanswered("not found", `No license matches this name. ${notFound(state, coverage)}`));
        } else {
          const named = candidates.map((l) => `${l.license} (${l.business || l.owner}, ${l.address.line_1})`);
          settle([i], () =>
            unanswered("check", `${candidates.length} licenses match this name: ${named.join("; ")}. Add the number.`),
          );
        }
        report();
      }
    } catch (error) {
      if (signal?.aborted) throw error;
      const open = [...[...numbers.values()].flat(), ...names].filter((i) => results[i] === undefined);
      for (const i of open) {
        settle([i], () =>
          error instanceof ApiError && error.kind === "unavailable"
            ? unanswered("not covered", notCoveredReason(state))
            : unanswered("check", `Not checked: ${errorWords(error)} Verify the list again to retry this row.`),
        );
      }
      report();
    }
  }
  return results as RowResult[];
}

type RowOwn = Pick<RowResult, "row" | "stateGiven" | "state" | "license" | "alsoOnRows">;

function own(row: ListRow): RowOwn {
  return { row: row.row, stateGiven: row.stateGiven, state: row.state, license: row.license, alsoOnRows: [] };
}

function unanswered(verdict: VerdictWord, reason: string): Omit<RowResult, keyof RowOwn> {
  return { matched: "", verdict, reason, status: "", business: "", owner: "", expires: "", source: "", asOf: "" };
}

function found(
  row: ListRow,
  license: License,
  provenance: Provenance | null,
  { verdict, reason }: { verdict: VerdictWord; reason: string },
): Omit<RowResult, keyof RowOwn> {
  const record = {
    matched: license.license,
    status: license.status,
    business: license.business,
    owner: license.owner,
    expires: licenseDates(license).expires ?? "",
    source: provenance?.source.agency ?? "",
    asOf: recordAsOf(provenance) ?? "",
  };
  // A number that belongs to someone else is the wrong account, whatever its record says.
  if (row.business && !sameName(row.business, license)) {
    return {
      ...record,
      verdict: "check",
      reason: `Number belongs to ${license.business || license.owner}, not ${row.business}. Its record: ${verdict}.`,
    };
  }
  return { ...record, verdict, reason };
}

/** A row's address, when given, must share its words with the record's street line. */
function sameAddress(given: string, license: License): boolean {
  const street = new Set(words(normalizeText(`${license.address.line_1} ${license.address.line_2 ?? ""}`)));
  // The street part only: the city and ZIP a clerk may add are not in line 1.
  return words(normalizeText(given.split(",")[0] ?? "")).every((w) => street.has(w));
}

/** "Not in our New York data, which covers …" */
function notFound(state: string, coverage: StateCoverage[] | null): string {
  return notFoundReason(state, sourcesCover(coverage?.find((c) => c.state === state)));
}

/** "unknown state “XX”" -> "Unknown state “XX”." */
function sentence(words: string): string {
  const text = words.trim();
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.?!]$/.test(text) ? "" : "."}`;
}

function errorWords(error: unknown): string {
  if (error instanceof ApiError) return error.message.endsWith(".") ? error.message : `${error.message}.`;
  return "the check failed.";
}
