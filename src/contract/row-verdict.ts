import type { GivenRow, ReadProblem } from "./checks.ts";
import type { DecodingTable } from "./decoding/decoding-table.ts";
import type { Provenance } from "./envelopes.ts";
import type { License } from "./license.ts";
import { sameAddress, sameName } from "./same-name.ts";
import { stateCodeOf } from "./states.ts";
import { notFoundReason, type Verdict } from "./verdict.ts";
import { held, judged, none } from "./watched-verdict.ts";

/** What reading the list found wrong with a line, before its fields are looked at. */
const READ_WORDS: Record<ReadProblem, string> = {
  "unclosed quote": 'a quote (") is never closed, so every line after it was read into this row',
  "misplaced quotes": 'its quotes (") are misplaced: a quoted cell must start and end with one',
  "too many columns": "too many columns: expected state, license number, business name, address",
};

/** Why a row cannot be asked about as written, in words a clerk understands; null when it can. */
export function givenProblem(given: GivenRow, read: readonly ReadProblem[] = []): string | null {
  const problems = read.map((r) => READ_WORDS[r]);
  const state = stateCodeOf(given.state);
  if (state === null && !given.license && !given.business) {
    problems.push("not a list row: expected a state and a license number, separated by a comma or a tab");
  } else {
    if (state === null) {
      problems.push(
        given.state ? `unknown state “${given.state}”: write a code such as NY or a name such as New York` : "no state",
      );
    }
    if (!given.license && !given.business) problems.push("no license number and no business name");
  }
  return problems.join("; ") || null;
}

/** For each row, the other lines giving the same state and number: such a row is asked once and answered on each. */
export function sameNumberLines(rows: readonly { given: GivenRow; problem: string | null }[]): number[][] {
  const byNumber = new Map<string, number[]>();
  const keys = rows.map(({ given, problem }) => {
    const state = stateCodeOf(given.state);
    if (problem !== null || state === null || given.license === "") return null;
    const key = `${state}/${given.license}`;
    byNumber.set(key, [...(byNumber.get(key) ?? []), given.line ?? 0]);
    return key;
  });
  return rows.map(({ given }, i) => {
    const key = keys[i];
    return key ? byNumber.get(key)!.filter((line) => line !== given.line) : [];
  });
}

/** The records a name-only row's search answered that bear its name and, when given, its street. */
export function nameMatches(given: GivenRow, found: readonly License[]): License[] {
  return found.filter((l) => sameName(given.business, l) && sameAddress(given.address, l));
}

/** What was read of a row, by the page or by the app's server, from the service (or held by the watchlist). */
export type RowRead =
  /** The row cannot be asked about as written: `givenProblem`'s words. */
  | { kind: "unreadable"; problem: string }
  | { kind: "not covered" }
  /** The service failed for this row (the page's only: the app's server records nothing of a failed read). */
  | { kind: "failed"; words: string }
  /** The number as given, and the records held at the near numbers asked for one not held (none asked: []). */
  | {
      kind: "number";
      record: License | null;
      provenance: Provenance | null;
      near: readonly { number: string; record: License }[];
    }
  /** A name-only row: `nameMatches` of the search's answer, with the provenance of the one match. */
  | { kind: "name"; matches: readonly License[]; provenance: Provenance | null }
  /** A watched license the service stopped returning, with the record last seen of it. */
  | { kind: "gone"; last: License | null; provenance: Provenance | null }
  /** A watched license not answered yet. */
  | { kind: "unchecked" };

export interface RowContext {
  /** Today's date where the clerk is, `YYYY-MM-DD`. */
  today: string;
  decoding: DecodingTable | null;
  /** What the state's sources cover (`sourcesCover`): "" when the service does not say. */
  covers: string;
  /** The other lines of the list giving the same state and number. */
  alsoOn?: readonly number[];
}

/** What a row or page shows, and what the record of checks keeps of it. */
export interface RowVerdict extends Verdict {
  /** The record the verdict is about; null when none was matched. */
  record: License | null;
  provenance: Provenance | null;
  /** The numbers offered ("Did you mean …?"): near forms of the number given that the state holds. */
  offered: string[];
}

/**
 * What a row of a Verify list, a license page or a watched license shows: its verdict and reason (the
 * match or mismatch with the name the clerk gave, the numbers offered, the other lines giving the same
 * number), and the record it is about. The page and the app's server both decide by it, so the record
 * of checks holds what the screen said.
 */
export function rowVerdict(given: GivenRow, read: RowRead, context: RowContext): RowVerdict {
  const shown = decide(given, read, context);
  const alsoOn = context.alsoOn ?? [];
  if (alsoOn.length === 0) return shown;
  return { ...shown, reason: `${shown.reason} Also on line ${alsoOn.join(", ")}.` };
}

function decide(given: GivenRow, read: RowRead, context: RowContext): RowVerdict {
  const state = stateCodeOf(given.state) ?? given.state.toLowerCase();
  const notFound = notFoundReason(state, context.covers);

  switch (read.kind) {
    case "unreadable":
      return none("check", sentence(read.problem));
    case "failed":
      return none("check", `Not checked: ${stopped(read.words)} Verify the list again to retry this row.`);
    case "number": {
      const { record } = read;
      if (record) {
        const shown = judged(record, read.provenance, context);
        // A number that belongs to someone else is the wrong account, whatever its record says.
        if (given.business && !sameName(given.business, record)) {
          const named = record.business || record.owner;
          const mismatch = `Number belongs to ${named}, not ${given.business}. Its record: ${shown.verdict}.`;
          return { ...shown, verdict: "check", reason: mismatch };
        }
        return shown;
      }
      if (read.near.length === 0) return none("not found", notFound);
      const offers = read.near.map(({ number, record }) => `${number} (${record.business || record.owner})`);
      return none(
        "check",
        `Not found as written. Did you mean ${offers.join(" or ")}?`,
        read.near.map((n) => n.number),
      );
    }
    case "name": {
      const [only] = read.matches;
      if (read.matches.length === 1 && only) {
        const shown = judged(only, read.provenance, context);
        return { ...shown, reason: `Matched by name. ${shown.reason}` };
      }
      if (read.matches.length === 0) return none("not found", `No license matches this name. ${notFound}`);
      const named = read.matches.map((l) => `${l.license} (${l.business || l.owner}, ${l.address.line_1})`);
      return none("check", `${read.matches.length} licenses match this name: ${named.join("; ")}. Add the number.`);
    }
    default:
      return held(state, read, context);
  }
}

/** A license page's or a watched license's number, as the row it stands for: no line, no name. */
export function pageGiven(state: string, license: string): GivenRow {
  return { line: null, state, license, business: "", address: "" };
}

/** "unknown state “XX”" -> "Unknown state “XX”." */
function sentence(words: string): string {
  const text = stopped(words);
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/** Words ending in a full stop, or the mark they end in. */
function stopped(words: string): string {
  const text = words.trim();
  return /[.?!]$/.test(text) ? text : `${text}.`;
}
