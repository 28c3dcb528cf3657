import {
  describeSearchError,
  SearchParamsSchema,
  type SearchField,
  type SearchQuery,
} from "../contract/search-query.ts";
import { isStateCode } from "../contract/states.ts";
// In shared, so that the license pages' "New search" links make the same URL: `by=license` fills the form, runs nothing.
import { licenseUrl, searchFormUrl } from "../shared/page-urls.ts";

/** A license number is not searched: it opens the detail page. */
export type SearchMode = SearchField | "license";

export interface SearchFormValues {
  state: string;
  by: SearchMode;
  q: string;
}

export interface FieldError {
  field: "state" | "q";
  error: string;
}

/** Where submitting goes; for a license number, also the form to leave behind, so that Back comes to the number. */
export interface SubmitTarget {
  url: string;
  formUrl?: string;
}

const EMPTY_MESSAGES: Record<SearchMode, string> = {
  name: "Enter a business or owner name.",
  address: "Enter a street address.",
  license: "Enter a license number.",
};

export function searchUrl(query: SearchQuery): string {
  return searchFormUrl(query);
}

/** Fewer characters search nothing while typing: one letter matches too much to help. Enter still searches them. */
export const INSTANT_MIN_LENGTH = 2;

/**
 * Where the page goes as a name or address is typed, and the search it shows there: the search once the term
 * has INSTANT_MIN_LENGTH characters, the form without results (query null) before that; null when typing
 * changes nothing (a license number, no state, or a term the search refuses, which Enter explains).
 */
export function typedSearch(values: SearchFormValues): { url: string; query: SearchQuery | null } | null {
  if (values.by === "license" || !isStateCode(values.state)) return null;
  if ([...values.q.trim()].length < INSTANT_MIN_LENGTH) {
    return { url: searchFormUrl({ state: values.state, by: values.by }), query: null };
  }
  const checked = check(values);
  return "query" in checked ? { url: searchUrl(checked.query), query: checked.query } : null;
}

/**
 * A term typed as a name or address that is more likely a license number: one token, at least 4 digits, and
 * more digits than anything else (`1268007`, `00780-RS-0116`, `0101-33-005-003`; not `7-eleven` or `12 main st`).
 */
export function looksLikeLicenseNumber(term: string): boolean {
  const token = term.trim();
  const digits = token.replace(/[^0-9]/g, "").length;
  return !/\s/.test(token) && digits >= 4 && digits * 2 > [...token].length;
}

/** The form's values as the URL gives them, the search they make if they make one, and why not if the term is why. */
export function readSearchUrl(params: URLSearchParams): {
  values: SearchFormValues;
  query: SearchQuery | null;
  problem: FieldError | null;
} {
  const by = params.get("by");
  const values: SearchFormValues = {
    state: (params.get("state") ?? "").toLowerCase(),
    by: by === "address" || by === "license" ? by : "name",
    q: params.get("q") ?? "",
  };
  const checked = check(values);
  // A URL without a term is a form still to fill in; a term the search refuses (too long, control characters) needs a reason.
  const problem = "error" in checked && checked.field === "q" && values.q.trim() ? checked : null;
  return { values, query: "query" in checked ? checked.query : null, problem };
}

/** Where submitting the form goes, or what to fix first. */
export function submitTarget(values: SearchFormValues): SubmitTarget | FieldError {
  const checked = check(values);
  if ("error" in checked) return checked;
  if ("query" in checked) return { url: searchUrl(checked.query) };
  return {
    url: licenseUrl(values.state, checked.license),
    formUrl: searchFormUrl({ state: values.state, by: "license", q: checked.license }),
  };
}

function check(values: SearchFormValues): { query: SearchQuery } | { license: string } | FieldError {
  if (!isStateCode(values.state)) return { field: "state", error: "Choose a state." };
  const term = values.q.trim();
  if (!term) return { field: "q", error: EMPTY_MESSAGES[values.by] };
  if (values.by === "license") return { license: term };
  const parsed = SearchParamsSchema.safeParse({ state: values.state, [values.by]: values.q });
  if (!parsed.success) return { field: "q", error: sentence(describeSearchError(parsed.error)) };
  return { query: parsed.data };
}

function sentence(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}
