import type { SourcedRecord } from "../store/license-record.ts";
import type { SourceRow, StoredObservation } from "../store/sources-repo.ts";
import { toContractRecord, withDatesKeyed } from "./contract-gate.ts";
import { RowProblem, type SourceAdapter, type SourceRecord } from "./source-adapter.ts";

export type SourceInfo = Pick<SourceRow, "id" | "adapter" | "family" | "kind" | "as_of">;
export type ObservedIn = Pick<StoredObservation, "sourceId" | "license" | "asOf" | "facts" | "seq">;

/** Later first: a newer as-of date, then the source loaded later. */
const newer = (a: { asOf: string | null; id: number }, b: { asOf: string | null; id: number }) =>
  (a.asOf ?? "") !== (b.asOf ?? "") ? (a.asOf ?? "") > (b.asOf ?? "") : a.id > b.id;

interface Candidate {
  record: SourceRecord;
  sourceId: number;
  asOf: string | null;
  kind: SourceInfo["kind"];
}

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
  const currentRoster = new Map<string, SourceInfo>();
  for (const s of sources) {
    if (s.kind !== "roster") continue;
    const known = currentRoster.get(s.family);
    if (!known || newer({ asOf: s.as_of, id: s.id }, { asOf: known.as_of, id: known.id }))
      currentRoster.set(s.family, s);
  }
  // Each source with its adapter; an older roster of a family is left out, as its word no longer counts.
  const counted = new Map<number, SourceInfo & { folds: SourceAdapter }>();
  for (const s of sources) {
    if (s.kind === "changes" || currentRoster.get(s.family) === s)
      counted.set(s.id, { ...s, folds: adapterOf(s.adapter) });
  }

  // A license keeps its place (the order its first observation came in) even when it is no longer listed.
  const byLicense = new Map<string, ObservedIn[]>();
  for (const o of observations) {
    const list = byLicense.get(o.license);
    const counts = counted.has(o.sourceId);
    if (!list) byLicense.set(o.license, counts ? [o] : []);
    else if (counts) list.push(o);
  }

  /** What one family's observations of a license make of it. */
  const fold = (list: ObservedIn[]): Candidate => {
    const source = counted.get(list[0]!.sourceId)!;
    // A roster family's observations are all its newest roster's, in file order.
    if (source.kind === "changes" && list.length > 1) list.sort(inReportOrder);
    const last = list.at(-1)!;
    return { record: source.folds.fold(list), sourceId: last.sourceId, asOf: last.asOf, kind: source.kind };
  };

  const merged: SourcedRecord[] = [];
  for (const [license, list] of byLicense) {
    if (list.length === 0) continue;
    const family = counted.get(list[0]!.sourceId)!.family;
    let best: Candidate;
    if (list.every((o) => counted.get(o.sourceId)!.family === family)) {
      best = fold(list);
    } else {
      const families = new Map<string, ObservedIn[]>();
      for (const o of list) {
        const key = counted.get(o.sourceId)!.family;
        const same = families.get(key);
        if (same) same.push(o);
        else families.set(key, [o]);
      }
      const candidates = [...families.values()].map(fold);
      best = candidates.reduce((a, b) =>
        newer({ asOf: b.asOf, id: b.sourceId }, { asOf: a.asOf, id: a.sourceId }) ? b : a,
      );
    }
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
