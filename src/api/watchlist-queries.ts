import { mutationOptions, queryOptions } from "@tanstack/react-query";
import {
  CheckResponseSchema,
  LastCheckResponseSchema,
  WATCHLIST_API,
  WatchAddResponseSchema,
  WatchEntryResponseSchema,
  WatchlistResponseSchema,
  type WatchAddRow,
  type Watchlist,
} from "../contract/watchlist.ts";
import { ApiError, isMissingExtension } from "./api-error.ts";
import { clerkZone } from "./clerk-zone.ts";
import { fetchJson, sendJson } from "./fetch-json.ts";

/** One watched license's address: the number percent-encoded whole, as for /v2. */
function entryPath(state: string, license: string): string {
  return `${WATCHLIST_API}/${encodeURIComponent(state)}/${encodeURIComponent(license)}`;
}

const ALL = ["watchlist"] as const;

const LIST = [...ALL, "list"] as const;

export const watchlistQueries = {
  /** The team's watchlist: entries, unseen changes, the last check, alerts. */
  list: () =>
    queryOptions({
      queryKey: LIST,
      queryFn: async ({ signal }) => (await fetchJson(WATCHLIST_API, WatchlistResponseSchema, { signal })).data,
    }),

  /**
   * The running check, else the last one: asked every second while one runs (a few hundred bytes,
   * where the list is a megabyte a thousand licenses), and once it has ended the list is asked again
   * for what it found.
   */
  check: () =>
    queryOptions({
      queryKey: [...ALL, "check"] as const,
      queryFn: async ({ signal, client }) => {
        const check = (await fetchJson(`${WATCHLIST_API}/check`, LastCheckResponseSchema, { signal })).data;
        const listed = client.getQueryData<Watchlist>(LIST)?.check;
        const endedSince = check?.finished_at && (listed?.id !== check.id || listed.finished_at === null);
        if (endedSince) void client.invalidateQueries({ queryKey: LIST });
        return check;
      },
      refetchInterval: (query) => (query.state.data?.finished_at === null ? 1000 : false),
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

  /** The changes up to the newest one the clerk was shown marked as seen; one a check found since stays. */
  markSeen: () =>
    write((upTo: number) => sendJson("POST", `${WATCHLIST_API}/seen`, { up_to: upTo, zone: clerkZone() }, null)),
};

/** Why a write to the watchlist failed as a whole. */
export function watchWriteFailure(error: unknown): string {
  if (isMissingExtension(error)) return "This deployment of License Lookup keeps no watchlist.";
  if (error instanceof ApiError) return error.message;
  return "The watchlist could not be changed.";
}
