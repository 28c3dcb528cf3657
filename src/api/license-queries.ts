import { queryOptions } from "@tanstack/react-query";
import { LicenseResponseSchema, SearchResponseSchema, StatesResponseSchema } from "../contract/envelopes.ts";
import type { SearchQuery } from "../contract/search-query.ts";
import { ApiError } from "./api-error.ts";
import { fetchJson } from "./fetch-json.ts";

// Licence records change with a state's import, at most daily: a result stays good for a long working session.
const READ_ONLY = { staleTime: 30 * 60_000, gcTime: 60 * 60_000 };

export function licensePath(state: string, license: string): string {
  return `/v2/license/${encodeURIComponent(state)}/${encodeURIComponent(license)}`;
}

export const licenseQueries = {
  search: (query: SearchQuery) =>
    queryOptions({
      queryKey: ["licenses", "search", query.state, query.by, query.q] as const,
      queryFn: async ({ signal, client }) => {
        const params = new URLSearchParams({ state: query.state, [query.by]: query.q });
        const { data } = await fetchJson(`/v2/search?${params}`, SearchResponseSchema, { signal });
        // Opening a result then needs no second round trip.
        for (const license of data) {
          client.setQueryData(licenseQueries.detail(license.state, license.license).queryKey, license);
        }
        return data;
      },
      ...READ_ONLY,
    }),

  /** `null` when the state is searchable but holds no such number. */
  detail: (state: string, license: string) =>
    queryOptions({
      queryKey: ["licenses", "detail", state, license] as const,
      queryFn: async ({ signal }) =>
        (await fetchJson(licensePath(state, license), LicenseResponseSchema, { signal })).data,
      ...READ_ONLY,
    }),

  /** The states the key covers, or `null` from a service without `/v2/states`: then any state may answer. */
  coverage: () =>
    queryOptions({
      queryKey: ["states"] as const,
      queryFn: async ({ signal }) => {
        try {
          return (await fetchJson("/v2/states", StatesResponseSchema, { signal })).data;
        } catch (error) {
          if (error instanceof ApiError && error.kind === "unavailable") return null;
          throw error;
        }
      },
      ...READ_ONLY,
    }),
};
