import { keepPreviousData, mutationOptions, queryOptions } from "@tanstack/react-query";
import {
  CHECKS_API,
  ChainStateResponseSchema,
  LogPageResponseSchema,
  ReceiptResponseSchema,
  RecordChecksResponseSchema,
  type RecordChecksRequest,
} from "../contract/checks.ts";
import { clerkZone } from "./clerk-zone.ts";
import { fetchJson, sendJson } from "./fetch-json.ts";

/** The Checks page's filters as the query string carries them (`user`, `state`, `license`, `verdict`, `from`, `to`, `action`). */
export type ChecksFilter = Readonly<Record<string, string>>;

const ALL = ["checks"] as const;

function query(filter: ChecksFilter, before?: number | null): string {
  const params = new URLSearchParams(Object.entries(filter).filter(([, value]) => value !== ""));
  if (before) params.set("before", String(before));
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** The log as CSV with the same filters, for a download link. */
export function checksCsvUrl(filter: ChecksFilter): string {
  return `${CHECKS_API}.csv${query(filter)}`;
}

export const checksQueries = {
  /** A page of the log, newest first, older than `before` when given. */
  page: (filter: ChecksFilter, before: number | null) =>
    queryOptions({
      queryKey: [...ALL, "page", filter, before] as const,
      queryFn: async ({ signal }) =>
        (await fetchJson(`${CHECKS_API}${query(filter, before)}`, LogPageResponseSchema, { signal })).data,
      // The page shown stays while the next filter's answer comes.
      placeholderData: keepPreviousData,
    }),

  /** Whether the chain holds, as the server checks it from its last verified entry. */
  chain: () =>
    queryOptions({
      queryKey: [...ALL, "chain"] as const,
      queryFn: async ({ signal }) =>
        (await fetchJson(`${CHECKS_API}/chain`, ChainStateResponseSchema, { signal })).data,
    }),

  /** One entry as stored, its record parsed back: a receipt never changes, so it is asked once. */
  receipt: (id: number) =>
    queryOptions({
      queryKey: [...ALL, "receipt", id] as const,
      queryFn: async ({ signal }) => (await fetchJson(`${CHECKS_API}/${id}`, ReceiptResponseSchema, { signal })).data,
      staleTime: Infinity,
    }),
};

export const checksMutations = {
  /** What a page has just shown: the server reads each license and records what it served, with the clerk's zone. */
  record: () =>
    mutationOptions({
      mutationFn: async ({ action, rows }: Omit<RecordChecksRequest, "zone">) =>
        (await sendJson("POST", CHECKS_API, { action, zone: clerkZone(), rows }, RecordChecksResponseSchema)).data.ids,
      // The Checks page, opened next, shows the new entries.
      onSuccess: (_ids, _variables, _result, { client }) => client.invalidateQueries({ queryKey: ALL }),
    }),
};
