import { z } from "zod/mini";
import { MAX_BATCH } from "./envelopes.ts";

/**
 * The query of the list routes (`/v2/licenses/{state}`, `/v2/provenance/{state}`): `license`
 * repeated, one per number, each matched exactly as on `/v2/license`. Input is the query string's
 * `license` values as a list, however many were given.
 */
export const LicenseListQuerySchema = z.object({
  license: z
    // Not trimmed: a number is matched exactly. Blank is a slip (an empty pasted row), never a number.
    .array(z.string().check(z.regex(/\S/, "is empty: give the number, or leave that parameter out")))
    .check(
      z.minLength(1, `give at least one license number, as license=0012345, repeated for each (up to ${MAX_BATCH})`),
      z.maxLength(MAX_BATCH, {
        error: (issue) =>
          `give at most ${MAX_BATCH} license numbers a request, not ${(issue.input as unknown[]).length}: send a longer list in parts`,
      }),
    ),
});

export type LicenseListQuery = z.infer<typeof LicenseListQuerySchema>;

/** One sentence a person can read: the list's length first, else the first number that is wrong. */
export function describeLicenseListError(error: z.core.$ZodError): string {
  const issue = error.issues.find((i) => i.path.length === 1) ?? error.issues[0];
  if (!issue) return "the license numbers are not valid";
  const index = issue.path[1];
  return typeof index === "number" ? `license number ${index + 1} ${issue.message}` : issue.message;
}
