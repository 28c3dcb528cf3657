import Papa from "papaparse";
import { arcgisUrls } from "../data/sync/arcgis-fetch.ts";
import type { ArcgisSource, FeedDefinition, SocrataSource } from "../data/sync/feed-definition.ts";
import { socrataUrls } from "../data/sync/socrata-fetch.ts";
import { startReplayServer, type Fault, type Resource } from "./replay-server.ts";

/** Path and query of an agency URL: where the replay server answers it. */
export function pathOf(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

/** An HTTP date. */
export const httpDate = (ms: number) => new Date(ms).toUTCString();

/**
 * The agencies of fetch-sources.md played back on one loopback port, at each feed's documented paths, with the
 * headers their servers send (ETag, Last-Modified, X-SODA2-*, rowsUpdatedAt, editingInfo, exceededTransferLimit).
 * A sync pointed at `origin` asks it as it would ask the agencies. Each publish* replaces what a feed serves from
 * the next request on; `fault` makes the next requests to a URL misbehave (see replay-server.ts).
 */
export async function startAgencyReplay() {
  const server = await startReplayServer();
  const current = new Map<string, Resource>();
  const serve = (url: string, resource: Resource) => {
    current.set(pathOf(url), resource);
    server.serve(pathOf(url), resource);
  };
  const json = (value: unknown, headers: Record<string, string> = {}): Resource => ({
    body: JSON.stringify(value),
    contentType: "application/json; charset=utf-8",
    headers,
  });

  return {
    origin: server.origin,
    requests: server.requests,
    maxInFlight: server.maxInFlight,
    close: server.close,
    /** The requests the replay saw since `from` (an index into `requests`), as paths with their queries. */
    asked: (from = 0) => server.requests.slice(from).map((r) => r.url),

    /** A Socrata data set: its view's rowsUpdatedAt, count(*) and CSV pages in the feed's page size. */
    publishSocrata(source: SocrataSource, csv: string, rowsUpdatedAt: number) {
      const urls = socrataUrls(source);
      const { data } = Papa.parse<string[]>(csv.replace(/^\uFEFF/, ""), { skipEmptyLines: true });
      const [header = [], ...rows] = data;
      const modified = httpDate(rowsUpdatedAt * 1000);
      const headers = { "x-soda2-truth-last-modified": modified, "last-modified": modified };
      serve(urls.metadata, json({ id: source.dataset, rowsUpdatedAt, viewLastModified: rowsUpdatedAt }));
      serve(urls.count, json([{ count: String(rows.length) }], headers));
      for (let offset = 0; offset <= rows.length; offset += source.pageSize) {
        const page = Papa.unparse([header, ...rows.slice(offset, offset + source.pageSize)], { newline: "\n" }) + "\n";
        serve(urls.page(offset), {
          body: page,
          contentType: "text/csv; charset=UTF-8",
          etag: `"${rowsUpdatedAt}-${offset}"`,
          headers,
        });
      }
    },

    /** An ArcGIS layer: its JSON (editingInfo when given, else the edit field's newest value), count and pages. */
    publishArcgis(source: ArcgisSource, features: Record<string, unknown>[], lastEditDate?: number) {
      const urls = arcgisUrls(source);
      serve(
        urls.layer,
        json({
          id: 5,
          name: "Alcohol License Business Locations",
          ...(lastEditDate ? { editingInfo: { lastEditDate } } : {}),
        }),
      );
      const newest = Math.max(0, ...features.map((f) => Number(f[source.editField] ?? 0)));
      serve(urls.newestEdit, json({ features: [{ attributes: { newest_edit: newest } }] }));
      serve(urls.count, json({ count: features.length }));
      const fields = Object.keys(features[0] ?? {}).map((name) => ({ name }));
      for (let offset = 0; offset <= features.length; offset += source.pageSize) {
        const page = features.slice(offset, offset + source.pageSize);
        serve(
          urls.page(offset),
          json({
            fields,
            features: page.map((attributes) => ({ attributes })),
            exceededTransferLimit: offset + source.pageSize < features.length,
          }),
        );
      }
    },

    /** A file at an agency URL. */
    publishFile: (url: string, resource: Resource) => serve(url, resource),

    /** A web page at an agency URL (an index, a landing page). */
    publishPage: (url: string, html: string) => serve(url, { body: html, contentType: "text/html; charset=UTF-8" }),

    /** The next requests to this URL meet these faults, then it is served as before. */
    fault(url: string, faults: Fault[]) {
      const resource = current.get(pathOf(url)) ?? { body: "" };
      server.serve(pathOf(url), { ...resource, faults: [...faults] });
    },

    /** What a URL serves now (to publish a changed copy of it). */
    serving: (url: string) => current.get(pathOf(url)),
  };
}

export type AgencyReplay = Awaited<ReturnType<typeof startAgencyReplay>>;

/** NJ's licensing reports page, linking each given report (section 5). */
export function njReportsPage(reports: readonly { url: string; label: string }[]): string {
  const links = reports.map((r) => `<li><a href="${r.url}">${r.label}</a></li>`).join("\n");
  return `<!DOCTYPE html><html><head><title>Licensing Reports</title></head><body><h1>Licensing Reports</h1><ul>\n${links}\n</ul></body></html>`;
}

/** mass.gov's landing page of a /doc/ file, with its "Last updated" row (section 4). */
export function massGovLanding(title: string, lastUpdated: string): string {
  return (
    `<!DOCTYPE html><html><head><title>${title} | Mass.gov</title></head><body><h1>${title}</h1>` +
    `<table class="ma__listing-table"><tr><th scope="row">Last updated</th>` +
    `<td><span class="ma__listing-table__data-item">${lastUpdated}</span></td></tr></table></body></html>`
  );
}

/** A feed's definition with another page size: the tests page through small data sets. */
export function withPageSize(feed: FeedDefinition, pageSize: number): FeedDefinition {
  const source = feed.source;
  return source.kind === "socrata" || source.kind === "arcgis" ? { ...feed, source: { ...source, pageSize } } : feed;
}
