import type { SourcedRecord, StoredFieldSource } from "../../store/license-record.ts";
import type { SourceRow, StoredObservation } from "../../store/sources-repo.ts";
import { toContractRecord, withDatesKeyed } from "./contract-gate.ts";
import { RowProblem, type SourceAdapter, type SourceRecord } from "../sources/source-adapter.ts";

export type SourceInfo = Pick<SourceRow, "id" | "adapter" | "family" | "kind" | "as_of"> &
  Partial<Pick<SourceRow, "partial">>;
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
 * newest whole roster is the list: a license it leaves out is no longer listed; a partial roster of
 * the family (a list cut from a fuller one) as new or newer speaks for the licenses it names. Within
 * a family of change reports, the adapter folds every report in date order. Across families and
 * lists, the newest source's facts win, field by field: a field a source has no column for
 * (`unstated`) is the next newest source's word on it, and the record names that source and its date
 * for it (`fields`).
 */
export function mergeRecords(
  sources: readonly SourceInfo[],
  observations: Iterable<ObservedIn>,
  adapterOf: (name: string) => SourceAdapter,
  onRefused: (license: string, reason: string) => void,
): SourcedRecord[] {
  const currentRoster = new Map<string, SourceInfo>();
  for (const s of sources) {
    if (s.kind !== "roster" || s.partial) continue;
    const known = currentRoster.get(s.family);
    if (!known || newer({ asOf: s.as_of, id: s.id }, { asOf: known.as_of, id: known.id }))
      currentRoster.set(s.family, s);
  }
  const counts = (s: SourceInfo) => {
    if (s.kind === "changes") return true;
    const list = currentRoster.get(s.family);
    if (!s.partial) return list === s;
    // A partial list older than the family's whole one: the whole list's silence is newer.
    return !list || !newer({ asOf: list.as_of, id: list.id }, { asOf: s.as_of, id: s.id });
  };
  // Each source with its adapter; an older roster of a family is left out, as its word no longer counts.
  const counted = new Map<number, SourceInfo & { folds: SourceAdapter }>();
  for (const s of sources) if (counts(s)) counted.set(s.id, { ...s, folds: adapterOf(s.adapter) });
  // What folds together: a family of change reports, or one roster.
  const unitOf = (sourceId: number) => {
    const source = counted.get(sourceId)!;
    return source.kind === "changes" ? `family ${source.family}` : `source ${sourceId}`;
  };

  // A license keeps its place (the order its first observation came in) even when it is no longer listed.
  const byLicense = new Map<string, ObservedIn[]>();
  for (const o of observations) {
    const list = byLicense.get(o.license);
    const used = counted.has(o.sourceId);
    if (!list) byLicense.set(o.license, used ? [o] : []);
    else if (used) list.push(o);
  }

  /** What one unit's observations of a license make of it. */
  const fold = (list: ObservedIn[]): Candidate => {
    const source = counted.get(list[0]!.sourceId)!;
    // A roster's observations are all its own, in file order.
    if (source.kind === "changes" && list.length > 1) list.sort(inReportOrder);
    const last = list.at(-1)!;
    return { record: source.folds.fold(list), sourceId: last.sourceId, asOf: last.asOf, kind: source.kind };
  };

  const merged: SourcedRecord[] = [];
  for (const [license, list] of byLicense) {
    if (list.length === 0) continue;
    const unit = unitOf(list[0]!.sourceId);
    let best: Candidate;
    let fields: StoredFieldSource[] = [];
    if (list.every((o) => unitOf(o.sourceId) === unit)) {
      best = fold(list);
    } else {
      const units = new Map<string, ObservedIn[]>();
      for (const o of list) {
        const key = unitOf(o.sourceId);
        const same = units.get(key);
        if (same) same.push(o);
        else units.set(key, [o]);
      }
      const candidates = [...units.values()]
        .map(fold)
        .sort((a, b) => (newer({ asOf: a.asOf, id: a.sourceId }, { asOf: b.asOf, id: b.sourceId }) ? -1 : 1));
      const filled = filledIn(candidates);
      best = { ...candidates[0]!, record: filled.record };
      fields = filled.fields;
    }
    try {
      const { unstated: _, ...given } = best.record;
      // A roster's rows were checked as they were read; a fold of changes is checked here.
      const record = best.kind === "roster" ? withDatesKeyed(given) : toContractRecord(given);
      merged.push({ record, sourceId: best.sourceId, asOf: best.asOf, ...(fields.length > 0 && { fields }) });
    } catch (error) {
      if (!(error instanceof RowProblem)) throw error;
      onRefused(license, error.message);
    }
  }
  return merged;
}

/**
 * The newest candidate's record, each field it leaves unstated taken from the newest that states it,
 * and where each such field came from.
 */
function filledIn(newestFirst: readonly Candidate[]): { record: SourceRecord; fields: StoredFieldSource[] } {
  const [newest, ...older] = newestFirst;
  let record = newest!.record;
  const fields: StoredFieldSource[] = [];
  for (const field of record.unstated ?? []) {
    const from = older.find((c) => !c.record.unstated?.includes(field));
    if (!from) continue;
    record =
      field === "address"
        ? { ...record, address: from.record.address }
        : { ...record, details: { ...record.details, [field]: from.record.details[field] } };
    fields.push({ field, source: from.sourceId, as_of: from.asOf });
  }
  return { record, fields };
}

/** Change reports by date, then the source loaded first, then the order the file gave them in. */
function inReportOrder(a: ObservedIn, b: ObservedIn): number {
  return compare(a.asOf ?? "", b.asOf ?? "") || a.sourceId - b.sourceId || a.seq - b.seq;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
