import {
  HISTORY_FIELDS,
  type HistoryChange,
  type HistoryEntry,
  type Listing,
} from "../../../src/contract/envelopes.ts";
import { normalizeText } from "../../../src/contract/normalize-text.ts";
import { isDeepStrictEqual } from "node:util";
import { listedOnce, type SourcedRecord, type StoredHistory } from "../../store/license-record.ts";
import type { ObservedIn, SourceInfo } from "./merge-records.ts";
import type { SourceAdapter, SourceRecord } from "../sources/source-adapter.ts";

type Field = (typeof HISTORY_FIELDS)[number];

/** A field's value in one text, as a history shows it; null when the source does not give it. */
function fieldValue(record: SourceRecord, field: Field): string | null {
  if ((field === "address" || field === "type") && record.unstated?.includes(field)) return null;
  switch (field) {
    case "status":
    case "business":
    case "owner":
    case "phone":
      return record[field] || null;
    case "address": {
      const a = record.address;
      const place = [a.state, a.zip].filter(Boolean).join(" ");
      return [a.line_1, a.line_2, a.city, place].filter(Boolean).join(", ") || null;
    }
    case "type":
    case "class":
      return record.details[field] || null;
    default:
      return record.dates[field];
  }
}

/**
 * Whether two values of a field say the same: names and addresses compared as the search compares
 * them (case, punctuation and spacing aside), a phone by its digits. A list that writes a name in
 * capitals the next year has not renamed the business.
 */
export function sameValue(field: Field, a: string, b: string): boolean {
  if (field === "business" || field === "owner") return normalizeText(a) === normalizeText(b) || clipped(a, b);
  if (field === "address") return normalizeText(a) === normalizeText(b);
  if (field === "phone") return a.replace(/\D/g, "") === b.replace(/\D/g, "");
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/**
 * Whether one name is the other cut short: a list that clips long names has renamed no one. The
 * District's of August 2013 was made from a PDF that kept two lines a cell and broke words where
 * the lines ended ("Booeymong er" for Booeymonger Restaurant): spaces aside, the clipped name
 * begins the full one. Eight letters at least, so that a short name grown longer still shows.
 */
function clipped(a: string, b: string): boolean {
  const [x, y] = [normalizeText(a).replaceAll(" ", ""), normalizeText(b).replaceAll(" ", "")];
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  return short.length >= 8 && long.startsWith(short);
}

/**
 * What the next list is compared with: a name a list cut short keeps its full form from the list
 * before, and a field a list does not give at all (its address) is the list before's.
 */
function carried(before: SourceRecord | null, after: SourceRecord): SourceRecord {
  if (!before) return after;
  const fuller = (field: "business" | "owner") =>
    before[field].length > after[field].length && clipped(before[field], after[field]) ? before[field] : after[field];
  const unstated = new Set(after.unstated);
  return {
    ...after,
    business: fuller("business"),
    owner: fuller("owner"),
    address: unstated.has("address") ? before.address : after.address,
    details: {
      ...after.details,
      type: unstated.has("type") ? before.details.type : after.details.type,
      description: unstated.has("description") ? before.details.description : after.details.description,
    },
    unstated: before.unstated?.filter((field) => unstated.has(field)),
  };
}

/**
 * The fields that differ between two records of a license. A field one of them does not give is
 * no change (an older list had no status column), nor is a status one of them does not state.
 */
export function recordChanges(before: SourceRecord, after: SourceRecord, unstatedStatus?: string): HistoryChange[] {
  const changes: HistoryChange[] = [];
  for (const field of HISTORY_FIELDS) {
    const from = fieldValue(before, field);
    const to = fieldValue(after, field);
    if (from === null || to === null || sameValue(field, from, to)) continue;
    if (field === "address" && sameAddress(before.address, after.address)) continue;
    if (field === "status" && (from === unstatedStatus || to === unstatedStatus)) continue;
    changes.push({ field, license_type: null, from, to });
  }
  return changes;
}

/**
 * Whether two addresses can be the same place: street, unit, city and ZIP each alike (as names
 * compare), or left out by one of them (a list that drops the ZIP, or the suite, has not moved the premises).
 */
function sameAddress(a: SourceRecord["address"], b: SourceRecord["address"]): boolean {
  const parts = (x: SourceRecord["address"]) => [
    normalizeText(x.line_1),
    normalizeText(x.line_2 ?? ""),
    normalizeText(x.city),
    x.zip.slice(0, 5),
  ];
  const theirs = parts(b);
  return parts(a).every((part, i) => part === "" || theirs[i] === "" || part === theirs[i]);
}

/** What a license was last listed as, going: each field it gave, to null. */
function lastValues(record: SourceRecord, unstatedStatus?: string): HistoryChange[] {
  return HISTORY_FIELDS.flatMap((field) => {
    const from = fieldValue(record, field);
    if (from === null || (field === "status" && from === unstatedStatus)) return [];
    return [{ field, license_type: null, from, to: null }];
  });
}

interface Dated {
  entry: HistoryEntry;
  /** Ties on a date: the source loaded later, then the later row of a report, go first. */
  sourceId: number;
  seq: number;
}

/**
 * Every license's history in a state, from everything its sources said (the merge's input): per
 * family of sources, as each family shows it, then all families together, newest first.
 *
 * - A roster family is a series of complete lists, put in order by their as-of dates (not by when
 *   they were loaded): a license's first list is `first_seen`, a list that says otherwise than the
 *   one before is `changed`, the first list without it `no_longer_listed`, one naming it again
 *   `listed_again`. Each is dated by its list, `since` the list before.
 * - A family of change reports is told by its adapter's history(): each change from the first
 *   report that carries it.
 */
export function licenseHistories(
  sources: readonly SourceInfo[],
  observations: Iterable<ObservedIn>,
  adapterOf: (name: string) => SourceAdapter,
): Map<string, StoredHistory> {
  const sourceById = new Map(sources.map((s) => [s.id, s]));
  const rosters = new Map<string, SourceInfo[]>();
  for (const s of sources) {
    if (s.kind !== "roster") continue;
    const family = rosters.get(s.family);
    if (family) family.push(s);
    else rosters.set(s.family, [s]);
  }
  for (const family of rosters.values()) family.sort((a, b) => compare(a.as_of ?? "", b.as_of ?? "") || a.id - b.id);

  const byLicense = new Map<string, ObservedIn[]>();
  for (const o of observations) {
    if (!sourceById.has(o.sourceId)) continue;
    const list = byLicense.get(o.license);
    if (list) list.push(o);
    else byLicense.set(o.license, [o]);
  }

  const histories = new Map<string, StoredHistory>();
  for (const [license, list] of byLicense) {
    const dated: Dated[] = [];
    const listings: Listing[] = [];
    const changes = new Map<string, ObservedIn[]>();
    const inRoster = new Map<number, ObservedIn>();
    for (const o of list) {
      const source = sourceById.get(o.sourceId)!;
      if (source.kind === "roster") {
        // A list naming a number twice: its later row, as the live record takes it.
        const known = inRoster.get(o.sourceId);
        if (!known || known.seq < o.seq) inRoster.set(o.sourceId, o);
      } else {
        const family = changes.get(source.family);
        if (family) family.push(o);
        else changes.set(source.family, [o]);
      }
    }
    for (const family of rosters.values()) {
      if (family.some((s) => inRoster.has(s.id))) rosterHistory(family, inRoster, adapterOf, dated, listings);
    }
    for (const reports of changes.values()) reportHistory(reports, sourceById, adapterOf, dated);
    dated.sort((a, b) => compare(b.entry.date ?? "", a.entry.date ?? "") || b.sourceId - a.sourceId || b.seq - a.seq);
    // Runs of lists of several families, in the order of their dates.
    if (listings.length > 1)
      listings.sort((a, b) => compare(a.from ?? "", b.from ?? "") || a.first_source - b.first_source);
    histories.set(license, { entries: dated.map((d) => d.entry), listings });
  }
  return histories;
}

function rosterHistory(
  family: readonly SourceInfo[],
  inRoster: ReadonlyMap<number, ObservedIn>,
  adapterOf: (name: string) => SourceAdapter,
  dated: Dated[],
  listings: Listing[],
): void {
  let last: SourceRecord | null = null;
  let listed = false;
  let run: Listing | null = null;
  // The list before, among those that speak of this license (a partial list silent on it does not).
  let since: string | null = null;
  for (const list of family) {
    const at = { date: list.as_of, since, source: list.id };
    const order = { sourceId: list.id, seq: 0 };
    const seen = inRoster.get(list.id);
    // A partial list's silence on a license says nothing: no entry, and its listing goes on.
    if (!seen && list.partial) continue;
    since = list.as_of;
    if (!seen) {
      // What it was last listed as: the live records no longer say.
      if (listed && last) {
        const changes = lastValues(last, adapterOf(list.adapter).unstatedStatus);
        dated.push({ entry: { event: "no_longer_listed", ...at, changes }, ...order });
      }
      listed = false;
      run = null;
      continue;
    }
    const record = seen.facts as SourceRecord;
    const unstated = adapterOf(list.adapter).unstatedStatus;
    if (!last) {
      // What it was first listed as is the record, less the changes after: not kept twice.
      dated.push({ entry: { event: "first_seen", ...at, changes: [] }, ...order });
    } else {
      const changes = recordChanges(last, record, unstated);
      if (!listed) dated.push({ entry: { event: "listed_again", ...at, changes }, ...order });
      else if (changes.length > 0) dated.push({ entry: { event: "changed", ...at, changes }, ...order });
    }
    if (run) {
      run.to = list.as_of;
      run.lists++;
      run.last_source = list.id;
    } else {
      run = { from: list.as_of, to: list.as_of, lists: 1, first_source: list.id, last_source: list.id };
      listings.push(run);
    }
    last = carried(last, record);
    listed = true;
  }
}

function reportHistory(
  reports: ObservedIn[],
  sourceById: ReadonlyMap<number, SourceInfo>,
  adapterOf: (name: string) => SourceAdapter,
  dated: Dated[],
): void {
  reports.sort((a, b) => compare(a.asOf ?? "", b.asOf ?? "") || a.sourceId - b.sourceId || a.seq - b.seq);
  const adapter = adapterOf(sourceById.get(reports[0]!.sourceId)!.adapter);
  if (!adapter.history) throw new Error(`${adapter.name} reports changes but cannot tell a license's history`);
  let last: HistoryEntry | null = null;
  for (const { index, changes } of adapter.history(reports)) {
    const report = reports[index]!;
    const date = report.asOf ?? sourceById.get(report.sourceId)!.as_of;
    // One day's report of one source is one entry, however many of the license's rows it holds.
    if (last && last.date === date && last.source === report.sourceId) {
      last.changes.push(...changes);
      continue;
    }
    last = { event: index === 0 ? "first_seen" : "changed", date, since: null, source: report.sourceId, changes };
    dated.push({ entry: last, sourceId: report.sourceId, seq: report.seq });
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The histories worth storing: not those of licenses their record's source alone listed once
 * (listedOnce), which the store makes from the record when asked. A state with one list keeps none.
 */
export function* historiesToStore(
  histories: ReadonlyMap<string, StoredHistory>,
  records: readonly SourcedRecord[],
): Generator<[string, StoredHistory]> {
  const plain = new Set(
    records
      .filter(
        (r) =>
          r.sourceId !== null && isDeepStrictEqual(histories.get(r.record.license), listedOnce(r.sourceId, r.asOf)),
      )
      .map((r) => r.record.license),
  );
  for (const entry of histories) if (!plain.has(entry[0])) yield entry;
}
