import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { once } from "node:events";
import Papa from "papaparse";
import { ApiAnswerError, IncompleteDownload } from "./download-errors.ts";
import type { Fetched, FetchContext, SocrataSource } from "./feed-definition.ts";
import { fetchJson, fetchTo, pagedData, unchangedSince, type DateSignal } from "./fetch-feed.ts";

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
  const signal: DateSignal = {
    name: "rowsUpdatedAt",
    value: typeof metadata.rowsUpdatedAt === "number" ? String(metadata.rowsUpdatedAt) : undefined,
    toMs: (seconds) => Number(seconds) * 1000,
    subject: "its rows were",
  };
  const unchanged = unchangedSince(signal, context.previous);
  if (unchanged) return unchanged;

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
  return pagedData(
    {
      url: urls.page(0),
      file,
      sha256: hash.digest("hex"),
      bytes: out.bytesWritten,
      rows,
      reported: expected,
      where: `${source.site}/resource/${source.dataset}`,
    },
    signal,
    context.previous,
  );
}
