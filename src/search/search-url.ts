import {
  describeSearchError,
  SearchParamsSchema,
  type SearchField,
  type SearchQuery,
} from "../contract/search-query.ts";
import { isStateCode } from "../contract/states.ts";

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

const EMPTY_MESSAGES: Record<SearchMode, string> = {
  name: "Enter a business or owner name.",
  address: "Enter a street address.",
  license: "Enter a license number.",
};

export function searchUrl(query: SearchQuery): string {
  return `/?${new URLSearchParams({ state: query.state, by: query.by, q: query.q })}`;
}

export function licenseUrl(state: string, license: string): string {
  return `/license/${state}/${encodeURIComponent(license)}`;
}

/** The form's values as the URL gives them, the search they make if they make one, and why not if the term is why. */
export function readSearchUrl(params: URLSearchParams): {
  values: SearchFormValues;
  query: SearchQuery | null;
  problem: FieldError | null;
} {
  const values: SearchFormValues = {
    state: (params.get("state") ?? "").toLowerCase(),
    by: params.get("by") === "address" ? "address" : "name",
    q: params.get("q") ?? "",
  };
  const checked = check(values);
  // A URL without a term is a form still to fill in; a term the search refuses (too long, control characters) needs a reason.
  const problem = "error" in checked && checked.field === "q" && values.q.trim() ? checked : null;
  return { values, query: "query" in checked ? checked.query : null, problem };
}

/** Where submitting the form goes, or what to fix first. */
export function submitTarget(values: SearchFormValues): { url: string } | FieldError {
  const checked = check(values);
  if ("error" in checked) return checked;
  return { url: "query" in checked ? searchUrl(checked.query) : licenseUrl(values.state, checked.license) };
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
