import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { once } from "node:events";
import Papa from "papaparse";
import { ApiAnswerError, IncompleteDownload } from "./download-errors.ts";
import type { Fetched, FetchContext, SocrataSource } from "./feed-definition.ts";
import { fetchJson, fetchTo, utcMinute } from "./fetch-feed.ts";

/** The URLs a Socrata feed asks, as the agency publishes them (fetch-sources.md section 1). */
export function socrataUrls(source: SocrataSource) {
  const base = `${source.site}/resource/${source.dataset}`;
  return {
    metadata: `${source.site}/api/views/${source.dataset}.json`,
    count: `${base}.json?$select=count(*)`,
    page: (offset: number) => `${base}.csv?$order=${source.order}&$limit=${source.pageSize}&$offset=${offset}`,
  };
}

/**
 * rowsUpdatedAt first; only when it moved (or the view gives none) the rows, page by page in `$order`, their
 * number checked against `count(*)`. The pages are put together as one CSV, the header once: that file is kept
 * and imported. A view without rowsUpdatedAt is compared by the SHA-256 of its rows.
 */
export async function fetchSocrata(source: SocrataSource, context: FetchContext): Promise<Fetched> {
  const urls = socrataUrls(source);
  const metadata = (await fetchJson(urls.metadata, context)) as { rowsUpdatedAt?: unknown };
  const updated = typeof metadata.rowsUpdatedAt === "number" ? String(metadata.rowsUpdatedAt) : undefined;
  const said = (at: string) => utcMinute(Number(at) * 1000);
  if (updated !== undefined && updated === context.previous.rowsUpdatedAt) {
    return {
      kind: "unchanged",
      detail: `its rows were last updated ${said(updated)}, as at the last check`,
      validators: context.previous,
    };
  }

  const counted = (await fetchJson(urls.count, context)) as { count?: unknown }[];
  const expected = Number(counted[0]?.count);
  if (!Array.isArray(counted) || !Number.isInteger(expected)) {
    throw new ApiAnswerError(urls.count, `${urls.count} did not give the number of rows.`);
  }

  const file = join(context.dir, `${source.dataset}.csv`);
  const out = createWriteStream(file);
  const hash = createHash("sha256");
  const write = async (text: string) => {
    hash.update(text);
    if (!out.write(text)) await once(out, "drain");
  };
  let header: string | undefined;
  let rows = 0;
  try {
    for (let offset = 0; ; offset += source.pageSize) {
      const url = urls.page(offset);
      const got = await fetchTo(url, `page-${offset}.csv`, context);
      if (got.kind !== "downloaded")
        throw new ApiAnswerError(url, `${url} answered 304 to a request that asked nothing.`);
      const text = (await readFile(got.file, "utf8")).replace(/^\uFEFF/, "");
      const head = Papa.parse<string[]>(text, { preview: 1, delimiter: "," });
      const pageHeader = text.slice(0, head.meta.cursor);
      const body = text.slice(head.meta.cursor);
      const parsed = Papa.parse<string[]>(body, { skipEmptyLines: true, delimiter: "," });
      const width = head.data[0]?.length ?? 0;
      const short = parsed.data.findIndex((cells) => cells.length !== width);
      if (parsed.errors.length > 0 || short !== -1) {
        const error = new IncompleteDownload(
          url,
          `${url} holds a broken row (row ${short === -1 ? (parsed.errors[0]!.row ?? 0) + 1 : short + 1} of the page): ` +
            `it was cut mid-row, and nothing of it was loaded.`,
        );
        error.rejected = { file: got.file, sha256: got.sha256, bytes: got.bytes };
        throw error;
      }
      if (header === undefined) {
        header = pageHeader.endsWith("\n") ? pageHeader : `${pageHeader}\n`;
        await write(header);
      } else if (pageHeader.trim() !== header.trim()) {
        throw new IncompleteDownload(
          url,
          `${url} has other columns than the first page: the data set changed mid-way.`,
        );
      }
      rows += parsed.data.length;
      if (body.length > 0) await write(body.endsWith("\n") ? body : `${body}\n`);
      if (parsed.data.length < source.pageSize) break;
    }
    out.end();
    await once(out, "finish");
  } catch (error) {
    out.destroy();
    throw error;
  }
  const sha256 = hash.digest("hex");
  if (rows !== expected) {
    const error = new IncompleteDownload(
      urls.page(0),
      `${source.site}/resource/${source.dataset} gave ${rows.toLocaleString("en-US")} rows where it reports ` +
        `${expected.toLocaleString("en-US")}: the download is incomplete (or the data set changed while it was read).`,
    );
    error.rejected = { file, sha256, bytes: out.bytesWritten };
    throw error;
  }
  const validators = { ...(updated ? { rowsUpdatedAt: updated } : {}), sha256 };
  if (updated === undefined && sha256 === context.previous.sha256) {
    return { kind: "unchanged", detail: "its rows are the same as at the last check", validators };
  }
  return {
    kind: "fetched",
    file,
    sha256,
    importFile: file,
    url: urls.page(0),
    validators,
    ...(updated ? { asOf: new Date(Number(updated) * 1000).toISOString().slice(0, 10) } : {}),
    detail:
      updated === undefined
        ? `its ${rows.toLocaleString("en-US")} rows differ from the last check`
        : `its rows were updated ${said(updated)}` +
          (context.previous.rowsUpdatedAt ? ` (last check: ${said(context.previous.rowsUpdatedAt)})` : ""),
  };
}
