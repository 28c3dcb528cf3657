import { createHash } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import Papa from "papaparse";
import { ApiAnswerError } from "./download-errors.ts";
import type { ArcgisSource, Fetched, FetchContext } from "./feed-definition.ts";
import { fetchJson, pagedData, unchangedSince, type DateSignal } from "./fetch-feed.ts";

/** The URLs an ArcGIS feed asks, as the agency publishes them (fetch-sources.md section 2). */
export function arcgisUrls(source: ArcgisSource) {
  const query = (params: Record<string, string>) =>
    `${source.layer}/query?${new URLSearchParams({ where: "1=1", ...params, f: "json" }).toString()}`;
  return {
    layer: `${source.layer}?f=json`,
    newestEdit: query({
      outStatistics: JSON.stringify([
        { statisticType: "max", onStatisticField: source.editField, outStatisticFieldName: "newest_edit" },
      ]),
    }),
    count: query({ returnCountOnly: "true" }),
    page: (offset: number) =>
      query({
        outFields: "*",
        returnGeometry: "false",
        orderByFields: source.order,
        resultOffset: String(offset),
        resultRecordCount: String(source.pageSize),
      }),
  };
}

type Answer = Record<string, unknown> & { error?: { message?: string; code?: number } };

async function ask(url: string, context: FetchContext): Promise<Answer> {
  const answer = (await fetchJson(url, context)) as Answer;
  // ArcGIS answers 200 with an error in the body.
  if (answer.error) {
    throw new ApiAnswerError(
      url,
      `${url} answered an error: ${answer.error.message ?? "no message"} (${answer.error.code ?? "?"}).`,
    );
  }
  return answer;
}

/**
 * The layer's last edit (editingInfo.lastEditDate, else the newest edit field) first; only when it moved, every
 * feature in pages ordered by `order`, their number checked against returnCountOnly. The attributes are kept as one
 * CSV, a column per field in the layer's order (dates as ArcGIS gives them, milliseconds since 1970): that file is
 * kept and imported.
 */
export async function fetchArcgis(source: ArcgisSource, context: FetchContext): Promise<Fetched> {
  const urls = arcgisUrls(source);
  const layer = (await ask(urls.layer, context)) as { editingInfo?: { lastEditDate?: unknown } };
  let lastEdit = typeof layer.editingInfo?.lastEditDate === "number" ? layer.editingInfo.lastEditDate : undefined;
  if (lastEdit === undefined) {
    const stats = (await ask(urls.newestEdit, context)) as { features?: { attributes?: { newest_edit?: unknown } }[] };
    const newest = stats.features?.[0]?.attributes?.newest_edit;
    if (typeof newest === "number") lastEdit = newest;
  }
  const signal: DateSignal = {
    name: "lastEditDate",
    value: lastEdit === undefined ? undefined : String(lastEdit),
    toMs: Number,
    subject: "the layer was",
  };
  const unchanged = unchangedSince(signal, context.previous);
  if (unchanged) return unchanged;

  const count = (await ask(urls.count, context)).count;
  if (typeof count !== "number")
    throw new ApiAnswerError(urls.count, `${urls.count} did not give the number of features.`);
  let fields: string[] | undefined;
  const rows: unknown[][] = [];
  for (let offset = 0; ; offset += source.pageSize) {
    const url = urls.page(offset);
    const page = (await ask(url, context)) as {
      fields?: { name: string }[];
      features?: { attributes?: Record<string, unknown> }[];
      exceededTransferLimit?: boolean;
    };
    if (!Array.isArray(page.features)) throw new ApiAnswerError(url, `${url} gave no features.`);
    fields ??= page.fields?.map((f) => f.name) ?? Object.keys(page.features[0]?.attributes ?? {});
    for (const feature of page.features) rows.push(fields.map((name) => feature.attributes?.[name] ?? ""));
    if (page.features.length === 0 || (page.features.length < source.pageSize && !page.exceededTransferLimit)) break;
  }
  const text = Papa.unparse({ fields: fields ?? [], data: rows }, { newline: "\n" }) + "\n";
  const file = join(context.dir, source.name);
  await writeFile(file, text);
  return pagedData(
    {
      url: urls.page(0),
      file,
      sha256: createHash("sha256").update(text).digest("hex"),
      bytes: Buffer.byteLength(text),
      rows: rows.length,
      reported: count,
      where: source.layer,
    },
    signal,
    context.previous,
  );
}
