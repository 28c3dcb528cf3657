import { queryOptions, replaceEqualDeep, type QueryClient } from "@tanstack/react-query";
import {
  LicenseHistoryResponseSchema,
  LicenseResponseSchema,
  ProvenanceListResponseSchema,
  ProvenanceResponseSchema,
  SearchResponseSchema,
  SearchWithProvenanceResponseSchema,
  StatesResponseSchema,
  type Provenance,
} from "../contract/envelopes.ts";
import { loadDecodingTable } from "../contract/decoding/decode.ts";
import type { DecodingTable } from "../contract/decoding/decoding-table.ts";
import type { License } from "../contract/license.ts";
import type { SearchQuery } from "../contract/search-query.ts";
import { isMissingExtension, nullsWithoutExtension } from "./api-error.ts";
import { fetchJson } from "./fetch-json.ts";
import { historyPath, licensePath, listPath, provenancePath } from "./v2-paths.ts";

// Licence records change with a state's import, at most daily: a result stays good for a long working session.
const READ_ONLY = { staleTime: 30 * 60_000, gcTime: 60 * 60_000 };

/** A search's matches, each with where it comes from (null where the service does not say), and the state's decoding. */
export interface SearchAnswer {
  /** The search answered: shown beside its licenses, so a previous answer kept on screen is never read as the next one's. */
  query: SearchQuery;
  licenses: License[];
  provenance: (Provenance | null)[];
  decoding: DecodingTable | null;
}

/**
 * Where a client keeps that its service answers no `/v2/search-with-provenance` (true once a 404 said so):
 * a cache entry like any other, dropped after the client's gcTime unused, so the next search asks again.
 */
const WITHOUT_SEARCH_WITH_PROVENANCE = ["service", "without", "search-with-provenance"] as const;

/**
 * A search's licenses and where each comes from: in one round trip through our extension
 * (`/v2/search-with-provenance`), else, from a service with only the contract, the search and then our
 * provenance list, or nulls without it. Which one is found out on the first search.
 */
async function searchWithProvenance(client: QueryClient, query: SearchQuery, signal: AbortSignal) {
  const params = new URLSearchParams({ state: query.state, [query.by]: query.q });
  if (client.getQueryData(WITHOUT_SEARCH_WITH_PROVENANCE) !== true) {
    try {
      return (await fetchJson(`/v2/search-with-provenance?${params}`, SearchWithProvenanceResponseSchema, { signal }))
        .data;
    } catch (error) {
      if (!isMissingExtension(error)) throw error;
      client.setQueryData(WITHOUT_SEARCH_WITH_PROVENANCE, true);
    }
  }
  const { data: licenses } = await fetchJson(`/v2/search?${params}`, SearchResponseSchema, { signal });
  if (licenses.length === 0) return { licenses, provenance: [] };
  const numbers = licenses.map((l) => l.license);
  const sourcesPath = listPath("provenance", query.state, numbers);
  const { data: provenance } = await fetchJson(sourcesPath, ProvenanceListResponseSchema, { signal }).catch(
    nullsWithoutExtension(licenses.length),
  );
  return { licenses, provenance };
}

/**
 * A result of `answer` about to be opened: its record and where it comes from go into the cache, so its page needs no
 * second round trip. Done for the one opened rather than for every answer: twenty cache entries a keystroke held up
 * each keystroke's results.
 */
export function rememberResult(client: QueryClient, answer: SearchAnswer, license: string): void {
  const i = answer.licenses.findIndex((l) => l.license === license);
  if (i < 0) return;
  const { state } = answer.licenses[i]!;
  client.setQueryData(licenseQueries.detail(state, license).queryKey, answer.licenses[i]);
  client.setQueryData(licenseQueries.provenance(state, license).queryKey, answer.provenance[i] ?? null);
}

/** The records of recent answers, by state and number: at most this many. */
const RECENT_RECORDS = 200;
type RecentRecord = { license: License; provenance: Provenance | null };
const recentRecords = new WeakMap<QueryClient, Map<string, RecentRecord>>();

/**
 * An answer's records, each the very object a recent answer held when nothing in it differs (else the new one):
 * a keystroke's results then draw again only what changed in them, the words marked.
 */
function sharedRecords(client: QueryClient, { licenses, provenance }: Omit<SearchAnswer, "query" | "decoding">) {
  let recent = recentRecords.get(client);
  if (!recent) recentRecords.set(client, (recent = new Map<string, RecentRecord>()));
  const shared = licenses.map((license, i) => {
    const key = `${license.state}/${license.license}`;
    const known = recent.get(key);
    const record = {
      license: replaceEqualDeep(known?.license, license),
      provenance: replaceEqualDeep(known?.provenance, provenance[i] ?? null),
    };
    recent.delete(key);
    recent.set(key, record);
    return record;
  });
  for (const key of recent.keys()) {
    if (recent.size <= RECENT_RECORDS) break;
    recent.delete(key);
  }
  return { licenses: shared.map((r) => r.license), provenance: shared.map((r) => r.provenance) };
}

/** An extension route's `data`; null from a service without the extension. Any other failure stands. */
async function withoutExtensionNull<T>(answer: Promise<{ data: T }>): Promise<T | null> {
  try {
    return (await answer).data;
  } catch (error) {
    if (isMissingExtension(error)) return null;
    throw error;
  }
}

export const licenseQueries = {
  search: (query: SearchQuery) =>
    queryOptions({
      queryKey: ["licenses", "search", query.state, query.by, query.q] as const,
      queryFn: async ({ signal, client }): Promise<SearchAnswer> => {
        const decoding = client.ensureQueryData(licenseQueries.decoding(query.state));
        const found = await searchWithProvenance(client, query, signal);
        return { query, ...sharedRecords(client, found), decoding: await decoding };
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

  /** Which of `numbers` the state holds, in the order asked (null where none): one batch request where the service has it. */
  held: (state: string, numbers: readonly string[]) =>
    queryOptions({
      queryKey: ["licenses", "held", state, ...numbers] as const,
      queryFn: async ({ signal, client }) => {
        // Asked only for a number not found as written: the list reader comes with the first such answer.
        const { LicenseLists } = await import("./license-lists.ts");
        const { licenses } = await new LicenseLists(signal).numbers(state, numbers);
        // A number offered is then opened without a second round trip.
        numbers.forEach((number, i) =>
          client.setQueryData(licenseQueries.detail(state, number).queryKey, licenses[i] ?? null),
        );
        return licenses;
      },
      ...READ_ONLY,
    }),

  /** Where one license comes from; null when the service does not say (or holds no such number). */
  provenance: (state: string, license: string) =>
    queryOptions({
      queryKey: ["licenses", "provenance", state, license] as const,
      queryFn: ({ signal }) =>
        withoutExtensionNull(fetchJson(provenancePath(state, license), ProvenanceResponseSchema, { signal })),
      ...READ_ONLY,
    }),

  /** What the state's files have said of one license over time; null when the service keeps none (or no history at all). */
  history: (state: string, license: string) =>
    queryOptions({
      queryKey: ["licenses", "history", state, license] as const,
      queryFn: ({ signal }) =>
        withoutExtensionNull(fetchJson(historyPath(state, license), LicenseHistoryResponseSchema, { signal })),
      ...READ_ONLY,
    }),

  /** A state's decoding table (code names), a static file of the app's own: loaded once, beside the record. */
  decoding: (state: string) =>
    queryOptions({
      queryKey: ["decoding", state] as const,
      queryFn: () => loadDecodingTable(state),
      staleTime: Infinity,
      gcTime: Infinity,
    }),

  /** The states the key covers, or `null` from a service without `/v2/states`: then any state may answer. */
  coverage: () =>
    queryOptions({
      queryKey: ["states"] as const,
      queryFn: ({ signal }) => withoutExtensionNull(fetchJson("/v2/states", StatesResponseSchema, { signal })),
      ...READ_ONLY,
    }),
};
