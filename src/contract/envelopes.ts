import { z } from "zod/mini";
import { IsoDateSchema, LicenseSchema, UpdatedAtSchema } from "./license.ts";
import { StateCodeSchema } from "./states.ts";

export const MAX_RESULTS = 10;
/** The most license numbers one list request may ask about: a longer list goes in several requests. */
export const MAX_BATCH = 100;

export const SearchResponseSchema = z.object({
  data: z.array(LicenseSchema).check(z.maxLength(MAX_RESULTS)),
});

export const LicenseResponseSchema = z.object({
  data: z.nullable(LicenseSchema),
});

const Count = z.number().check(z.int(), z.nonnegative());

/** Our addition: one source of a state's records, as the agency published it (a file, or demo data). */
export const SourceSchema = z.object({
  id: Count,
  /** The agency's name as people say it: "New York State Liquor Authority". */
  agency: z.string(),
  /** The dataset's title. */
  title: z.string(),
  /** What it covers, in plain words: "New York City on-premises liquor licenses only". */
  coverage: z.string(),
  /** The file's name, and its SHA-256; null for generated demo data. */
  file: z.nullable(z.string()),
  sha256: z.nullable(z.string()),
  /** The date the source says its data was current on; null when unknown. */
  as_of: z.nullable(IsoDateSchema),
  /**
   * How that date is known: "stated in the file", "the file's name", "the first day of the month the
   * file states", "given at import", "the newest date in the file", "the day the file was published".
   */
  as_of_from: z.string(),
  /** When it was loaded into this service (UTC). */
  loaded_at: UpdatedAtSchema,
  /** Live records whose word is this source's. */
  records: Count,
});

/** Our addition: the last time a sync asked one agency feed whether it published something new, and what it found. */
export const FeedHealthSchema = z.object({
  /** The fetch definition, "<adapter>/<name>": "ny-sla/retail-licenses". */
  feed: z.string(),
  /** Where it asks, as the agency publishes it. */
  url: z.string(),
  checked_at: UpdatedAtSchema,
  /**
   * unchanged: nothing new was published; changed: new data came in; refused: a download came but was not loaded
   * (last_refusal says why); failed: the agency could not be asked (no answer, an error).
   */
  outcome: z.enum(["unchanged", "changed", "refused", "failed"]),
  /** What that check found, in a sentence. */
  detail: z.string(),
  /** The last check that brought new data in; null when none has yet. */
  changed_at: z.nullable(UpdatedAtSchema),
});

/** Our addition: a file an import or a sync would not load, and why; the old records stayed served. */
export const RefusalSchema = z.object({
  refused_at: UpdatedAtSchema,
  file: z.string(),
  /** Names the file's copy in the archive, where one was kept. */
  sha256: z.string(),
  reason: z.string(),
});

/**
 * Our addition: what backs a state, as its sources' coverage words tell (decided in coverage-kind.ts): a roster of
 * the licenses of the whole state, a roster of part of it (a county or a city), or no roster at all (tax filings,
 * notices, what changed between two dates), where a license that is missing may still be licensed.
 */
export const COVERAGE_KINDS = ["statewide_roster", "part_of_state", "not_a_roster"] as const;

/** Our addition to the spec: which states the caller's key can search, and what backs each. */
export const StateCoverageSchema = z.object({
  state: StateCodeSchema,
  name: z.string(),
  records: Count,
  sources: z.array(SourceSchema),
  /** Absent where the sources' words do not tell, and from a service that does not say. */
  kind: z.optional(z.enum(COVERAGE_KINDS)),
  /** Each agency feed a sync keeps this state current from, with its last check; absent where nothing syncs. */
  feeds: z.optional(z.array(FeedHealthSchema)),
  /** The newest file refused for this state (by a sync or by hand), or null; absent where the service keeps none. */
  last_refusal: z.optional(z.nullable(RefusalSchema)),
});

/** Our addition: the published snapshot of the license data a service node serves (several nodes, one data set). */
export const ServedSnapshotSchema = z.object({
  /** The snapshot's SHA-256, which names it; its first 12 hex digits are each answer's `x-lls-snapshot`. */
  sha256: z.string().check(z.regex(/^[0-9a-f]{64}$/, "a SHA-256 in lowercase hex")),
  published_at: z
    .string()
    .check(z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, "a UTC timestamp as YYYY-MM-DDTHH:MM:SS.sssZ")),
});
export type ServedSnapshot = z.infer<typeof ServedSnapshotSchema>;

export const StatesResponseSchema = z.object({
  data: z.array(StateCoverageSchema),
  /** Where the service runs as several nodes: the snapshot this one serves, null while a local file is; absent on one node. */
  snapshot: z.optional(z.nullable(ServedSnapshotSchema)),
});

/** The license fields a source can leave to an older one, as a provenance names them: `address` holds the county. */
export const PROVENANCE_FIELDS = [
  "business",
  "owner",
  "phone",
  "status",
  "address",
  "type",
  "class",
  "description",
  "effective",
  "expires",
  "issued_original",
  "issued_latest",
] as const;

/**
 * Our addition: a field of a license that an older source gives, where the record's own source (the newest) has no
 * column for it: New York's 2019 extract gives no address, so the 2016 list's stands.
 */
export const FieldSourceSchema = z.object({
  field: z.enum(PROVENANCE_FIELDS),
  /** The date that older source says the field was true on. */
  as_of: z.nullable(IsoDateSchema),
  source: SourceSchema,
});

/** Our addition: where one served license comes from, and the date its source says it was true on. */
export const ProvenanceSchema = z.object({
  state: StateCodeSchema,
  license: z.string(),
  as_of: z.nullable(IsoDateSchema),
  source: SourceSchema,
  /** Each field an older source gives; absent where every field is `source`'s, and from a service that does not say. */
  fields: z.optional(z.array(FieldSourceSchema)),
});

export const ProvenanceResponseSchema = z.object({
  data: z.nullable(ProvenanceSchema),
});

/**
 * Our addition: a search's licenses as `/v2/search` gives them and, one entry per license in the same order,
 * where each comes from (null where the service does not say): the results and their sources in one request.
 */
export const SearchWithProvenanceResponseSchema = z.object({
  data: z
    .object({
      licenses: z.array(LicenseSchema).check(z.maxLength(MAX_RESULTS)),
      provenance: z.array(z.nullable(ProvenanceSchema)),
    })
    .check(
      z.refine((data) => data.provenance.length === data.licenses.length, {
        message: "one provenance entry per license",
      }),
    ),
});

/** Our addition: the licenses of a list of numbers, one entry per number asked, in that order; null where none. */
export const LicenseListResponseSchema = z.object({
  data: z.array(z.nullable(LicenseSchema)).check(z.maxLength(MAX_BATCH)),
});

/** Our addition: the provenance of a list of numbers, one entry per number asked, in that order; null where none. */
export const ProvenanceListResponseSchema = z.object({
  data: z.array(z.nullable(ProvenanceSchema)).check(z.maxLength(MAX_BATCH)),
});

/** Our addition: the license fields a history follows. */
export const HISTORY_FIELDS = [
  "status",
  "business",
  "owner",
  "address",
  "phone",
  "type",
  "class",
  "effective",
  "expires",
  "issued_original",
  "issued_latest",
] as const;

/** One field of a license changing, as its source shows it. */
export const HistoryChangeSchema = z.object({
  field: z.enum(HISTORY_FIELDS),
  /** The license type it concerns, where the source follows each type apart (California's "47"); else null. */
  license_type: z.nullable(z.string()),
  /** Null where nothing was known before (a type first reported). */
  from: z.nullable(z.string()),
  /** Null where the license is no longer listed: `from` is then what it was last listed as. */
  to: z.nullable(z.string()),
});

/**
 * - `first_seen`: the first source that names the license (a list's first entry holds no changes:
 *   what it was first listed as is the record, less the changes after);
 * - `changed`: a later source says otherwise;
 * - `no_longer_listed`: a complete list (a roster) no longer names it; its changes say what it was
 *   last listed as (each `to` null). A source of changes only never says this;
 * - `listed_again`: a list names it again after one that did not.
 */
export const HISTORY_EVENTS = ["first_seen", "changed", "no_longer_listed", "listed_again"] as const;

export const HistoryEntrySchema = z.object({
  event: z.enum(HISTORY_EVENTS),
  /** The day its source says it was true on: a daily report's day, a list's as-of date. Null when the source states none. */
  date: z.nullable(IsoDateSchema),
  /**
   * Where the source is a list: the date of the list before it, so the change happened between
   * `since` and `date`. Null when the source dates the change itself (a daily report), or no earlier list exists.
   */
  since: z.nullable(IsoDateSchema),
  /** The source that shows it: one of the history's `sources`, by id. */
  source: Count,
  changes: z.array(HistoryChangeSchema),
});

/** An unbroken run of lists of one series that name the license: two runs mean a gap. */
export const ListingSchema = z.object({
  from: z.nullable(IsoDateSchema),
  to: z.nullable(IsoDateSchema),
  /** How many lists the run spans, every one naming the license. */
  lists: Count,
  first_source: Count,
  last_source: Count,
});

/** Our addition: what a state's files have said of one license over time. */
export const LicenseHistorySchema = z.object({
  state: StateCodeSchema,
  license: z.string(),
  /** Newest first. */
  entries: z.array(HistoryEntrySchema),
  /** Oldest first; empty where no source is a complete list. */
  listings: z.array(ListingSchema),
  /** Every source an entry or a listing names. */
  sources: z.array(SourceSchema),
});

export const LicenseHistoryResponseSchema = z.object({
  data: z.nullable(LicenseHistorySchema),
});

export type SearchResponse = z.infer<typeof SearchResponseSchema>;
export type LicenseResponse = z.infer<typeof LicenseResponseSchema>;
export type StateCoverage = z.infer<typeof StateCoverageSchema>;
export type CoverageKind = (typeof COVERAGE_KINDS)[number];
export type Source = z.infer<typeof SourceSchema>;
export type FeedHealth = z.infer<typeof FeedHealthSchema>;
export type Refusal = z.infer<typeof RefusalSchema>;
export type Provenance = z.infer<typeof ProvenanceSchema>;
export type FieldSource = z.infer<typeof FieldSourceSchema>;
export type LicenseListResponse = z.infer<typeof LicenseListResponseSchema>;
export type ProvenanceListResponse = z.infer<typeof ProvenanceListResponseSchema>;
export type SearchWithProvenanceResponse = z.infer<typeof SearchWithProvenanceResponseSchema>;
export type HistoryChange = z.infer<typeof HistoryChangeSchema>;
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;
export type Listing = z.infer<typeof ListingSchema>;
export type LicenseHistory = z.infer<typeof LicenseHistorySchema>;
