import type { CoverageKind, Source } from "./envelopes.ts";

// The words the importers write of what a file covers (server/data/sources/*/adapter.ts), read in this one place.
/** Texas's tax filings, Washington's notices: they say so. */
const SAYS_NOT_A_ROSTER = /\bnot a license roster\b|\bnot a list of licenses in force\b/i;
/** "between 2023-05-09 and 2024-04-01", "2018-06 to 2019-02": what happened in a span of time, not what is in force. */
const SPAN_OF_DATES = /\b\d{4}-\d{2}(?:-\d{2})? (?:to|and) \d{4}-\d{2}\b/;
/** "Fayette County only: …", "Detroit only: …", "Baltimore City only, …": a place, then "only", in the first clause. */
const PLACE_ONLY = /^[^:;,(]*\bonly\b/i;
const STATEWIDE = /\b(?:statewide|District-wide)\b/i;

/** What one source is, by its coverage words; null when they do not tell (demo data, a test's). */
export function sourceKind(coverage: string): CoverageKind | null {
  if (SAYS_NOT_A_ROSTER.test(coverage) || SPAN_OF_DATES.test(coverage)) return "not_a_roster";
  if (PLACE_ONLY.test(coverage)) return "part_of_state";
  if (STATEWIDE.test(coverage)) return "statewide_roster";
  return null;
}

const WIDEST_FIRST: readonly CoverageKind[] = ["statewide_roster", "part_of_state", "not_a_roster"];

/**
 * What backs a state: the widest kind among the sources its records come from today (any source's, when none has
 * records). New York's statewide list beside its city's list is a statewide roster; Pennsylvania's two counties are
 * part of the state. Undefined when no source's words tell.
 */
export function stateKind(sources: readonly Pick<Source, "coverage" | "records">[]): CoverageKind | undefined {
  const live = sources.filter((s) => s.records > 0);
  const kinds = new Set((live.length ? live : sources).map((s) => sourceKind(s.coverage)));
  return WIDEST_FIRST.find((kind) => kinds.has(kind));
}
