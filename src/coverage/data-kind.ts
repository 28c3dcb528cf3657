import type { CoverageKind } from "../contract/envelopes.ts";

/**
 * What backs a state, as the map draws it (a statewide roster solid, part of the state dotted, not a roster
 * striped) and in the words of its legend, its table and each state's name on the map.
 */
export const DATA_KINDS = [
  { kind: "statewide_roster", words: "statewide license roster", legend: "Statewide license roster" },
  {
    kind: "part_of_state",
    words: "part of the state only",
    legend: "Part of the state only (a county or a city)",
  },
  {
    kind: "not_a_roster",
    words: "not a license roster",
    legend: "Not a license roster (tax filings, notices, changes)",
  },
] as const satisfies readonly { kind: CoverageKind; words: string; legend: string }[];

export function kindWords(kind: CoverageKind): string {
  return DATA_KINDS.find((k) => k.kind === kind)!.words;
}
