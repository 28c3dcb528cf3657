import { z } from "zod/mini";

export const MAX_TERM_LENGTH = 100;
export const SEARCH_FIELDS = ["name", "address"] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

/** A validated search: one state, one field, one trimmed non-empty term. */
export interface SearchQuery {
  state: string;
  by: SearchField;
  q: string;
}

// C0, DEL and C1 controls: never part of a name or an address (matching them is the point here).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Trimmed; empty means absent. */
const Term = z
  .pipe(
    z.optional(z.string()),
    z.transform((v) => {
      const t = v?.trim();
      return t ? t : undefined;
    }),
  )
  .check(
    z.refine(
      (v) => v === undefined || [...v].length <= MAX_TERM_LENGTH,
      `must be at most ${MAX_TERM_LENGTH} characters`,
    ),
    z.refine((v) => v === undefined || !CONTROL.test(v), "must not contain control characters"),
  );

/**
 * The search parameters as the contract states them, plus our answers to what it leaves open.
 * Input is the query string's values, already known to be single strings.
 */
export const SearchParamsSchema = z.pipe(
  z
    .object({
      // Whether the state is one the caller may search is the service's question (404), not a shape rule.
      state: z.string().check(z.minLength(1, "is required: a two-letter state code such as ny")),
      name: Term,
      address: Term,
    })
    .check(
      z.refine((p) => !(p.name !== undefined && p.address !== undefined), {
        message: "give either name or address, not both",
        path: [],
      }),
      z.refine((p) => !(p.name === undefined && p.address === undefined), {
        message: "give a name (business or owner) or an address (street line 1) to search for",
        path: [],
      }),
    ),
  z.transform((p): SearchQuery => ({
    state: p.state.toLowerCase(),
    by: p.name !== undefined ? "name" : "address",
    q: (p.name ?? p.address)!,
  })),
);

/** One sentence a person can read, from the first thing wrong with the parameters. */
export function describeSearchError(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "the search parameters are not valid";
  const field = issue.path.length ? `${String(issue.path[0])} ` : "";
  return `${field}${issue.message}`;
}
