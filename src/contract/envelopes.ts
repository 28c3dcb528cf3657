import { z } from "zod/mini";
import { IsoDateSchema, LicenseSchema } from "./license.ts";
import { StateCodeSchema } from "./states.ts";

export const MAX_RESULTS = 10;

export const SearchResponseSchema = z.object({
  data: z.array(LicenseSchema).check(z.maxLength(MAX_RESULTS)),
});

export const LicenseResponseSchema = z.object({
  data: z.nullable(LicenseSchema),
});

/** Our addition to the spec: which states the caller's key can search, and what backs them. */
export const StateCoverageSchema = z.object({
  state: StateCodeSchema,
  name: z.string(),
  records: z.number().check(z.int(), z.nonnegative()),
  as_of: z.nullable(IsoDateSchema),
  source: z.string(),
});

export const StatesResponseSchema = z.object({
  data: z.array(StateCoverageSchema),
});

export type SearchResponse = z.infer<typeof SearchResponseSchema>;
export type LicenseResponse = z.infer<typeof LicenseResponseSchema>;
export type StateCoverage = z.infer<typeof StateCoverageSchema>;
