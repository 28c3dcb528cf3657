import { ApiError } from "../api/api-error.ts";
import { LicenseLists } from "../api/license-lists.ts";
import { GIVEN_CELL, GIVEN_TEXT, type GivenRow, type ReadProblem, type RecordRow } from "../contract/checks.ts";
import { loadDecodingTable } from "../contract/decoding/decode.ts";
import { MAX_BATCH, type StateCoverage } from "../contract/envelopes.ts";
import { licenseDates, type License } from "../contract/license.ts";
import { nearNumbers } from "../contract/near-numbers.ts";
import { recordAsOf, sourcesCover } from "../contract/record-source.ts";
import {
  nameMatches,
  rowVerdict,
  sameNumberLines,
  type RowContext,
  type RowRead,
  type RowVerdict,
} from "../contract/row-verdict.ts";
import type { VerdictWord } from "../contract/verdict.ts";
import type { ListRow } from "../shared/list-input.ts";

/** One row of the list as checked: flat words and dates, to show, export and keep in the browser. */
export interface RowResult {
  /** The row as the clerk gave it, and its line in the paste or the file. */
  given: GivenRow;
  /** What reading the list found wrong with the line itself. */
  read: ReadProblem[];
  /** The state's code, when the row names one. */
  state: string | null;
  /** The number of the record the verdict is about; "" when none was matched. */
  matched: string;
  verdict: VerdictWord;
  /** As shown: the match or mismatch with the name given, any number offered, the other lines giving the number. */
  reason: string;
  /** The record's status as the state writes it. */
  status: string;
  business: string;
  owner: string;
  expires: string;
  /** The agency, and the date its data was true on ("" when the service does not say). */
  source: string;
  asOf: string;
  /** True when the service failed for the row: it showed no verdict of the license, and is not on record. */
  failed: boolean;
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
 * The rows a run showed a verdict for, as the clerk gave them, for the record of checks: the server reads each
 * itself. A row named only by business sends the number it matched; a row the service failed for is not sent.
 */
export function recordedRows(results: readonly RowResult[]): RecordRow[] {
  // A cell longer than the record takes (a line of prose pasted as a row) is kept cut, not refused with the run.
  const cut = (text: string, most: number) => (text.length > most ? `${text.slice(0, most - 1)}…` : text);
  return results.flatMap(({ given, read, matched, failed }) => {
    if (failed) return [];
    const { line, state, license, business, address } = given;
    const row: RecordRow = {
      state: cut(state, GIVEN_CELL),
      license: cut(license, GIVEN_CELL),
      line: line ?? undefined,
      business: cut(business, GIVEN_TEXT),
      address: cut(address, GIVEN_TEXT),
    };
    if (read.length > 0) row.read = read;
    if (license === "" && matched) row.matched = matched;
    return [row];
  });
}

/** A list row as the clerk gave it. */
export function givenOf(row: ListRow): GivenRow {
  return { line: row.line, state: row.stateGiven, license: row.license, business: row.business, address: row.address };
}

/**
 * The verdict of every row of a list, answered state by state in batches, reported as they come.
 * A row is never dropped and never failed for the service's pace; a number is matched exactly.
 */
export async function verifyList(rows: readonly ListRow[], { today, coverage, onProgress, signal }: Options) {
  const results: (RowResult | undefined)[] = rows.map(() => undefined);
  const lists = new LicenseLists(signal);
  const given = rows.map(givenOf);
  const alsoOn = sameNumberLines(rows.map((row, i) => ({ given: given[i]!, problem: row.problem })));
  let done = 0;
  let waiting = 0;
  const report = () => onProgress({ results: [...results], done, oneByOne: lists.oneByOne, waiting });
  lists.onWait = (seconds) => {
    waiting = seconds;
    report();
  };
  const covers = (state: string) => sourcesCover(coverage?.find((c) => c.state === state));
  const settle = (i: number, read: RowRead, context: RowContext) => {
    waiting = 0;
    results[i] = {
      ...shown(rows[i]!, given[i]!, rowVerdict(given[i]!, read, { ...context, alsoOn: alsoOn[i] })),
      failed: read.kind === "failed",
    };
    done += 1;
  };
  const plain: RowContext = { today, decoding: null, covers: "" };

  // Rows that cannot be asked about as written, and states the service does not cover, are answered at once.
  const asked = new Map<string, { numbers: Map<string, number[]>; names: number[] }>();
  rows.forEach((row, i) => {
    if (row.problem !== null || row.state === null) {
      settle(i, { kind: "unreadable", problem: row.problem ?? "no state" }, plain);
    } else if (coverage !== null && !coverage.some((c) => c.state === row.state)) {
      settle(i, { kind: "not covered" }, plain);
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
    const context = { today, decoding, covers: covers(state) };
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
          const record = answer.licenses[k] ?? null;
          const held = (near.get(number) ?? []).flatMap((n) => {
            const found = nearFound.get(n);
            return found ? [{ number: n, record: found }] : [];
          });
          const read: RowRead = { kind: "number", record, provenance: answer.provenance[k] ?? null, near: held };
          for (const i of numbers.get(number)!) settle(i, read, context);
        });
        report();
      }
      for (const i of names) {
        const matches = nameMatches(given[i]!, await lists.byName(state, rows[i]!.business));
        const [provenance = null] =
          matches.length === 1 ? (await lists.numbers(state, [matches[0]!.license])).provenance : [];
        settle(i, { kind: "name", matches, provenance }, context);
        report();
      }
    } catch (error) {
      if (signal?.aborted) throw error;
      const open = [...[...numbers.values()].flat(), ...names].filter((i) => results[i] === undefined);
      for (const i of open) {
        settle(
          i,
          error instanceof ApiError && error.kind === "unavailable"
            ? { kind: "not covered" }
            : { kind: "failed", words: errorWords(error) },
          context,
        );
      }
      report();
    }
  }
  return results as RowResult[];
}

/** A row's verdict as the page shows it, with the record's words. */
function shown(row: ListRow, given: GivenRow, { verdict, reason, record, provenance }: RowVerdict) {
  return {
    given,
    read: row.read,
    state: row.state,
    matched: record?.license ?? "",
    verdict,
    reason,
    status: record?.status ?? "",
    business: record?.business ?? "",
    owner: record?.owner ?? "",
    expires: (record && licenseDates(record).expires) ?? "",
    source: provenance?.source.agency ?? "",
    asOf: recordAsOf(provenance) ?? "",
  };
}

function errorWords(error: unknown): string {
  return error instanceof ApiError ? error.message : "the check failed";
}
