import type { ChecksFilter } from "../api/checks-queries.ts";

/** The Checks page's filters, each a query-string parameter of the page and of `GET /api/checks`. */
export const FILTER_KEYS = ["user", "state", "license", "verdict", "action", "from", "to"] as const;

/** The filters the page's address carries; `before` (the page of older entries) is not one. */
export function readFilter(params: URLSearchParams): ChecksFilter {
  return Object.fromEntries(
    FILTER_KEYS.flatMap((key) => {
      const value = params.get(key)?.trim();
      return value ? [[key, value]] : [];
    }),
  );
}

/** The older page's `before`, when the address asks for one. */
export function readBefore(params: URLSearchParams): number | null {
  const before = params.get("before");
  return before && /^[1-9]\d{0,15}$/.test(before) ? Number(before) : null;
}

/** The page's address for `filter` (and `before` for an older page). */
export function filterSearch(filter: ChecksFilter, before: number | null = null): string {
  const params = new URLSearchParams(Object.entries(filter));
  if (before) params.set("before", String(before));
  const text = params.toString();
  return text ? `?${text}` : "";
}
