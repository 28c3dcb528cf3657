import { mutationOptions, queryOptions } from "@tanstack/react-query";
import {
  CheckResponseSchema,
  WATCHLIST_API,
  WatchAddResponseSchema,
  WatchEntryResponseSchema,
  WatchlistResponseSchema,
  type WatchAddRow,
  type Watchlist,
} from "../contract/watchlist.ts";
import { fetchJson, sendJson } from "./fetch-json.ts";

/** One watched license's address: the number percent-encoded whole, as for /v2. */
function entryPath(state: string, license: string): string {
  return `${WATCHLIST_API}/${encodeURIComponent(state)}/${encodeURIComponent(license)}`;
}

const ALL = ["watchlist"] as const;

/**
 * While a check runs, the list is asked again until it ends, so the page shows its progress and then
 * its changes. The whole list comes back each time: a long one is asked less often (1 ms a license, 1 to 5 s).
 */
function whileChecking(watchlist: Watchlist | undefined): number | false {
  if (!watchlist?.check || watchlist.check.finished_at !== null) return false;
  return Math.min(5000, Math.max(1000, watchlist.entries.length));
}

export const watchlistQueries = {
  /** The team's watchlist: entries, unseen changes, the last check, alerts. */
  list: () =>
    queryOptions({
      queryKey: [...ALL, "list"] as const,
      queryFn: async ({ signal }) => (await fetchJson(WATCHLIST_API, WatchlistResponseSchema, { signal })).data,
      refetchInterval: (query) => whileChecking(query.state.data),
    }),

  /** One license's entry; null when it is not watched. */
  entry: (state: string, license: string) =>
    queryOptions({
      queryKey: [...ALL, "entry", state, license] as const,
      queryFn: async ({ signal }) =>
        (await fetchJson(entryPath(state, license), WatchEntryResponseSchema, { signal })).data,
    }),
};

/** A write; once it is done, every watchlist answer is asked again, and the write counts as done when they are in. */
function write<TData, TVariables = void>(mutationFn: (variables: TVariables) => Promise<TData>) {
  return mutationOptions<TData, Error, TVariables>({
    mutationFn,
    onSettled: (_data, _error, _variables, _result, { client }) => client.invalidateQueries({ queryKey: ALL }),
  });
}

interface LicenseKey {
  state: string;
  license: string;
}

export const watchlistMutations = {
  /** Watch one license; a 422 (not found, not covered) or a 409 (the list is full) says why not in its detail. */
  watch: () =>
    write(
      async ({ state, license }: LicenseKey) =>
        (await sendJson("PUT", entryPath(state, license), undefined, WatchEntryResponseSchema)).data,
    ),

  unwatch: () =>
    write(({ state, license }: LicenseKey) => sendJson("DELETE", entryPath(state, license), undefined, null)),

  /** Watch a list's rows, each state as the clerk wrote it; one result a row. */
  add: () =>
    write(
      async (rows: WatchAddRow[]) => (await sendJson("POST", WATCHLIST_API, { rows }, WatchAddResponseSchema)).data,
    ),

  /** Start a check now; the list then follows it until it ends. */
  check: () =>
    write(async () => (await sendJson("POST", `${WATCHLIST_API}/check`, undefined, CheckResponseSchema)).data),

  /** Every change found so far marked as seen. */
  markSeen: () => write(() => sendJson("POST", `${WATCHLIST_API}/seen`, undefined, null)),
};
