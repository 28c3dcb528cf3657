import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fetchArcgis } from "./arcgis-fetch.ts";
import { ApiAnswerError } from "./download-errors.ts";
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
 * Downloads an agency URL (at --origin when given) into the sync's folder as `name`. Requests to one agency (the
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
    to: join(context.dir, name),
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
