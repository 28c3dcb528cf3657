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
   * file states", "given at import", "the newest date in the file".
   */
  as_of_from: z.string(),
  /** When it was loaded into this service (UTC). */
  loaded_at: UpdatedAtSchema,
  /** Live records whose word is this source's. */
  records: Count,
});

/** Our addition to the spec: which states the caller's key can search, and what backs each. */
export const StateCoverageSchema = z.object({
  state: StateCodeSchema,
  name: z.string(),
  records: Count,
  sources: z.array(SourceSchema),
});

export const StatesResponseSchema = z.object({
  data: z.array(StateCoverageSchema),
});

/** Our addition: where one served license comes from, and the date its source says it was true on. */
export const ProvenanceSchema = z.object({
  state: StateCodeSchema,
  license: z.string(),
  as_of: z.nullable(IsoDateSchema),
  source: SourceSchema,
});

export const ProvenanceResponseSchema = z.object({
  data: z.nullable(ProvenanceSchema),
});

/** Our addition: the licenses of a list of numbers, one entry per number asked, in that order; null where none. */
export const LicenseListResponseSchema = z.object({
  data: z.array(z.nullable(LicenseSchema)).check(z.maxLength(MAX_BATCH)),
});

/** Our addition: the provenance of a list of numbers, one entry per number asked, in that order; null where none. */
export const ProvenanceListResponseSchema = z.object({
  data: z.array(z.nullable(ProvenanceSchema)).check(z.maxLength(MAX_BATCH)),
});

export type SearchResponse = z.infer<typeof SearchResponseSchema>;
export type LicenseResponse = z.infer<typeof LicenseResponseSchema>;
export type StateCoverage = z.infer<typeof StateCoverageSchema>;
export type Source = z.infer<typeof SourceSchema>;
export type Provenance = z.infer<typeof ProvenanceSchema>;
export type LicenseListResponse = z.infer<typeof LicenseListResponseSchema>;
export type ProvenanceListResponse = z.infer<typeof ProvenanceListResponseSchema>;
