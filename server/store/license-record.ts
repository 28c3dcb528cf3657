import type { FieldSource, LicenseHistory } from "../../src/contract/envelopes.ts";
import type { License } from "../../src/contract/license.ts";

/**
 * A license as a source produces it: everything the contract shows except what the store adds
 * (`object`, and `updated_at`, which is the time the record was written).
 */
export type LicenseRecord = Omit<License, "object" | "updated_at">;

/** What a state's data set is and where it came from. */
export interface DatasetMeta {
  state: string;
  /** `demo`, or the source adapters' names such as `ny-sla`. */
  source: string;
  /** `YYYY-MM-DD`: the newest date its sources say they were current on, else null. */
  asOf: string | null;
  /** The source (sources.id) of every record given without one of its own. */
  sourceId?: number | null;
}

/** A record with the source it comes from and the date that source says it was true on. */
export interface SourcedRecord {
  record: LicenseRecord;
  sourceId: number | null;
  asOf: string | null;
  /** The fields an older source gives, the record's own having no column for them; absent or empty: none. */
  fields?: StoredFieldSource[];
}

/** A field of a record that an older source gives, by the source's id: the store names the source when it serves it. */
export type StoredFieldSource = Omit<FieldSource, "source"> & { source: number };

/** What the store keeps of a license's history; the sources it names are added when it is served. */
export type StoredHistory = Pick<LicenseHistory, "entries" | "listings">;

/**
 * The history of a license its record's source alone has listed, once, on one date: most licenses
 * of a state with one list. Not stored: made from the record's source and date when asked.
 */
export function listedOnce(sourceId: number, asOf: string | null): StoredHistory {
  return {
    entries: [{ event: "first_seen", date: asOf, since: null, source: sourceId, changes: [] }],
    listings: [{ from: asOf, to: asOf, lists: 1, first_source: sourceId, last_source: sourceId }],
  };
}
