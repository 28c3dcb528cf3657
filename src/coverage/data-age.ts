import type { CoverageKind, StateCoverage } from "../contract/envelopes.ts";
import { STATES, type StateCode } from "../contract/states.ts";
import { formatIsoDate } from "../contract/calendar-date.ts";
import { newestFirst } from "../contract/record-source.ts";
import { notCoveredReason } from "../contract/verdict.ts";
import { kindWords } from "./data-kind.ts";

/**
 * How old a state's newest data is, in the bands the map shades. The first band ends where the verdict rule's does:
 * a record of data more than a year old reads "check", so only a state shaded "under a year" can read "valid".
 */
export const AGE_BANDS = [
  { band: "under-1", words: "under a year old", within: 1 },
  { band: "1-3", words: "1 to 3 years old", within: 3 },
  { band: "3-5", words: "3 to 5 years old", within: 5 },
  { band: "over-5", words: "over 5 years old", within: null },
  { band: "undated", words: "of a date not given", within: null },
  { band: "not-covered", words: "not covered", within: null },
] as const;

export type AgeBand = (typeof AGE_BANDS)[number]["band"];

export interface StateAge {
  code: StateCode;
  name: string;
  band: AgeBand;
  /** The newest as-of date of the sources its records come from; null when none gives one (or it is not covered). */
  asOf: string | null;
  /** What the team's key reads of it; null when not covered. */
  coverage: StateCoverage | null;
  /** What backs it, where the service says. */
  kind: CoverageKind | null;
}

/** `2026-11-22`, 3 -> `2023-11-22`: the same calendar day, so a band starts on the day the verdict rule's year does. */
function yearsBefore(today: string, years: number): string {
  return `${String(Number(today.slice(0, 4)) - years).padStart(4, "0")}${today.slice(4)}`;
}

export function ageBand(asOf: string | null, today: string): AgeBand {
  if (asOf === null) return "undated";
  return AGE_BANDS.find((b) => b.within !== null && asOf >= yearsBefore(today, b.within))?.band ?? "over-5";
}

/** The newest date among the sources its records come from today (any source's, when none has records). */
function newestAsOf(coverage: StateCoverage): string | null {
  const live = coverage.sources.filter((s) => s.records > 0);
  return newestFirst(live.length ? live : coverage.sources)[0]?.as_of ?? null;
}

/** Every state and DC, in the contract's order, with the age of what the key reads of it. */
export function stateAges(coverage: readonly StateCoverage[], today: string): StateAge[] {
  return STATES.map(({ code, name }) => {
    const covered = coverage.find((c) => c.state === code) ?? null;
    const asOf = covered ? newestAsOf(covered) : null;
    const band = covered ? ageBand(asOf, today) : "not-covered";
    return { code, name, asOf, coverage: covered, band, kind: covered?.kind ?? null };
  });
}

export function bandWords(band: AgeBand): string {
  return AGE_BANDS.find((b) => b.band === band)!.words;
}

/**
 * "Pennsylvania: part of the state only; newest data as of May 1, 2025, 1 to 3 years old": the map's name for a state,
 * and its tooltip; a state not covered is said so in the words the list check and the watchlist use.
 */
export function stateWords({ code, name, band, asOf, kind }: StateAge): string {
  if (band === "not-covered") return notCoveredReason(code);
  const what = kind ? `${name}: ${kindWords(kind)};` : `${name}:`;
  if (asOf === null) return `${what} the data’s date is not given`;
  return `${what} newest data as of ${formatIsoDate(asOf)}, ${bandWords(band)}`;
}
