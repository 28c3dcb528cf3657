import type { SourcedRecord } from "../store/license-record.ts";
import type { SourceRow, StoredObservation } from "../store/sources-repo.ts";
import { toContractRecord, withDatesKeyed } from "./contract-gate.ts";
import { RowProblem, type SourceAdapter, type SourceRecord } from "./source-adapter.ts";

export type SourceInfo = Pick<SourceRow, "id" | "adapter" | "family" | "kind" | "as_of">;
export type ObservedIn = Pick<StoredObservation, "sourceId" | "license" | "asOf" | "facts" | "seq">;

/** Later first: a newer as-of date, then the source loaded later. */
const newer = (a: { asOf: string | null; id: number }, b: { asOf: string | null; id: number }) =>
  (a.asOf ?? "") !== (b.asOf ?? "") ? (a.asOf ?? "") > (b.asOf ?? "") : a.id > b.id;

/**
 * A state's live records, made from everything its sources said. Within a family of rosters, the
 * newest roster is the list: a license it leaves out is no longer listed. Within a family of change
 * reports, the adapter folds every report in date order. Across families, the newest source's
 * facts win: an application received in 2020 over the 2016 list of active licenses.
 */
export function mergeRecords(
  sources: readonly SourceInfo[],
  observations: Iterable<ObservedIn>,
  adapterOf: (name: string) => SourceAdapter,
  onRefused: (license: string, reason: string) => void,
): SourcedRecord[] {
  const sourceById = new Map(sources.map((s) => [s.id, s]));
  const currentRoster = new Map<string, SourceInfo>();
  for (const s of sources) {
    if (s.kind !== "roster") continue;
    const known = currentRoster.get(s.family);
    if (!known || newer({ asOf: s.as_of, id: s.id }, { asOf: known.as_of, id: known.id }))
      currentRoster.set(s.family, s);
  }

  const byLicense = new Map<string, Map<string, ObservedIn[]>>();
  for (const o of observations) {
    const family = sourceById.get(o.sourceId)!.family;
    let families = byLicense.get(o.license);
    if (!families) byLicense.set(o.license, (families = new Map<string, ObservedIn[]>()));
    let list = families.get(family);
    if (!list) families.set(family, (list = []));
    list.push(o);
  }

  interface Candidate {
    record: SourceRecord;
    sourceId: number;
    asOf: string | null;
    kind: SourceInfo["kind"];
  }
  const merged: SourcedRecord[] = [];
  for (const [license, families] of byLicense) {
    let best: Candidate | null = null;
    for (const [family, list] of families) {
      const first = sourceById.get(list[0]!.sourceId)!;
      const adapter = adapterOf(first.adapter);
      let candidate: Candidate;
      if (first.kind === "roster") {
        const current = currentRoster.get(family)!;
        const listed = list.filter((o) => o.sourceId === current.id);
        if (listed.length === 0) continue; // no longer listed by the family's newest roster
        candidate = { record: adapter.fold(listed), sourceId: current.id, asOf: listed.at(-1)!.asOf, kind: "roster" };
      } else {
        const ordered = [...list].sort(inReportOrder);
        const last = ordered.at(-1)!;
        candidate = { record: adapter.fold(ordered), sourceId: last.sourceId, asOf: last.asOf, kind: "changes" };
      }
      if (!best || newer({ asOf: candidate.asOf, id: candidate.sourceId }, { asOf: best.asOf, id: best.sourceId })) {
        best = candidate;
      }
    }
    if (!best) continue;
    try {
      // A roster's rows were checked as they were read; a fold of changes is checked here.
      const record = best.kind === "roster" ? withDatesKeyed(best.record) : toContractRecord(best.record);
      merged.push({ record, sourceId: best.sourceId, asOf: best.asOf });
    } catch (error) {
      if (!(error instanceof RowProblem)) throw error;
      onRefused(license, error.message);
    }
  }
  return merged;
}

/** Change reports by date, then the source loaded first, then the order the file gave them in. */
function inReportOrder(a: ObservedIn, b: ObservedIn): number {
  return compare(a.asOf ?? "", b.asOf ?? "") || a.sourceId - b.sourceId || a.seq - b.seq;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
