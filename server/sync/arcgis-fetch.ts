import { createHash } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import Papa from "papaparse";
import { ApiAnswerError, IncompleteDownload } from "./download-errors.ts";
import type { ArcgisSource, Fetched, FetchContext } from "./feed-definition.ts";
import { fetchJson, utcMinute } from "./fetch-feed.ts";

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
  const edited = lastEdit === undefined ? undefined : String(lastEdit);
  if (edited !== undefined && edited === context.previous.lastEditDate) {
    return {
      kind: "unchanged",
      detail: `the layer was last edited ${utcMinute(Number(edited))}, as at the last check`,
      validators: context.previous,
    };
  }

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
  const sha256 = createHash("sha256").update(text).digest("hex");
  if (rows.length !== count) {
    const error = new IncompleteDownload(
      urls.page(0),
      `${source.layer} gave ${rows.length.toLocaleString("en-US")} features where it reports ` +
        `${count.toLocaleString("en-US")}: the download is incomplete (or the layer changed while it was read).`,
    );
    error.rejected = { file, sha256, bytes: Buffer.byteLength(text) };
    throw error;
  }
  const validators = { ...(edited ? { lastEditDate: edited } : {}), sha256 };
  if (edited === undefined && sha256 === context.previous.sha256) {
    return { kind: "unchanged", detail: "its features are the same as at the last check", validators };
  }
  return {
    kind: "fetched",
    file,
    sha256,
    importFile: file,
    url: urls.page(0),
    validators,
    ...(edited ? { asOf: new Date(Number(edited)).toISOString().slice(0, 10) } : {}),
    detail:
      edited === undefined
        ? `its ${rows.length.toLocaleString("en-US")} features differ from the last check`
        : `the layer was edited ${utcMinute(Number(edited))}` +
          (context.previous.lastEditDate ? ` (last check: ${utcMinute(Number(context.previous.lastEditDate))})` : ""),
  };
}
