import { readFile } from "node:fs/promises";
import { fetchArcgis } from "./arcgis-fetch.ts";
import type { FeedValidators } from "../../store/feed-checks-repo.ts";
import { ApiAnswerError, IncompleteDownload } from "./download-errors.ts";
import { pathInside } from "./download-name.ts";
import type { FeedDefinition, FetchContext, Fetched } from "./feed-definition.ts";
import { fetchFile, fetchLinkedFile } from "./file-fetch.ts";
import { download, withOrigin, type DownloadResult } from "./http-client.ts";
import { fetchSocrata } from "./socrata-fetch.ts";

/** Asks the agency whether the feed has something new, and fetches it whole only then. */
export function fetchFeed(definition: FeedDefinition, context: FetchContext): Promise<Fetched> {
  const source = definition.source;
  switch (source.kind) {
    case "socrata":
      return fetchSocrata(source, context);
    case "arcgis":
      return fetchArcgis(source, context);
    case "file":
      return fetchFile(source, context);
    case "linked-file":
      return fetchLinkedFile(source, context);
  }
}

/**
 * Downloads an agency URL (at --origin when given) into the sync's folder as `name`, never outside it. Requests to one agency (the
 * URL's own host, whatever the origin) go one at a time.
 */
export function fetchTo(
  url: string,
  name: string,
  context: FetchContext,
  options: { allowHtml?: boolean; validators?: { etag?: string; lastModified?: string } } = {},
): Promise<DownloadResult> {
  return download(withOrigin(url, context.origin), {
    ...context.client,
    ...options,
    // One request at a time: each name is written once, or read before it is written again.
    to: pathInside(context.dir, name),
    agency: new URL(url).host,
    keepRejected: true,
  });
}

/** A small answer (an index page, an API's metadata) as text. */
export async function fetchText(url: string, context: FetchContext, allowHtml = false): Promise<string> {
  const got = await fetchTo(url, "answer", context, { allowHtml });
  if (got.kind !== "downloaded") throw new ApiAnswerError(url, `${url} answered 304 to a request that asked nothing.`);
  return readFile(got.file, "utf8");
}

export async function fetchJson(url: string, context: FetchContext): Promise<unknown> {
  const text = await fetchText(url, context);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiAnswerError(url, `${url} did not answer JSON (it began "${text.slice(0, 60)}").`);
  }
}

/** "2026-11-20 08:00 UTC" */
export function utcMinute(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** The date an API gives of its data's last change: Socrata's rowsUpdatedAt, ArcGIS's last edit. */
export interface DateSignal {
  /** The validator it is kept as. */
  name: "rowsUpdatedAt" | "lastEditDate";
  /** As the API gives it; undefined where it gives none. */
  value: string | undefined;
  toMs: (value: string) => number;
  /** "its rows were" / "the layer was": what was updated, or last updated. */
  subject: string;
}

/** Unchanged when the API's date is the one of the last good check; else undefined: the data is read. */
export function unchangedSince(signal: DateSignal, previous: FeedValidators): Fetched | undefined {
  if (signal.value === undefined || signal.value !== previous[signal.name]) return undefined;
  return {
    kind: "unchanged",
    detail: `${signal.subject} last updated ${utcMinute(signal.toMs(signal.value))}, as at the last check`,
    validators: previous,
  };
}

/**
 * A paged API's data, put together in `file`: refused (kept, for the refusal to name) when it holds fewer or more
 * rows than the API reports; unchanged when the API gives no date and the data is the last check's, byte for byte.
 */
export function pagedData(
  data: { url: string; file: string; sha256: string; bytes: number; rows: number; reported: number; where: string },
  signal: DateSignal,
  previous: FeedValidators,
): Fetched {
  const n = (x: number) => x.toLocaleString("en-US");
  if (data.rows !== data.reported) {
    const error = new IncompleteDownload(
      data.url,
      `${data.where} gave ${n(data.rows)} rows where it reports ${n(data.reported)}: ` +
        `the download is incomplete (or the data changed while it was read).`,
    );
    error.rejected = { file: data.file, sha256: data.sha256, bytes: data.bytes };
    throw error;
  }
  const validators = { ...(signal.value ? { [signal.name]: signal.value } : {}), sha256: data.sha256 };
  if (signal.value === undefined) {
    return data.sha256 === previous.sha256
      ? { kind: "unchanged", detail: "its rows are the same as at the last check", validators }
      : { ...fetched(data, validators), detail: `its ${n(data.rows)} rows differ from the last check` };
  }
  const ms = signal.toMs(signal.value);
  const last = previous[signal.name];
  return {
    ...fetched(data, validators),
    asOf: new Date(ms).toISOString().slice(0, 10),
    detail:
      `${signal.subject} updated ${utcMinute(ms)}` + (last ? ` (last check: ${utcMinute(signal.toMs(last))})` : ""),
  };
}

function fetched(data: { url: string; file: string; sha256: string }, validators: FeedValidators) {
  return {
    kind: "fetched" as const,
    file: data.file,
    sha256: data.sha256,
    importFile: data.file,
    url: data.url,
    validators,
  };
}
