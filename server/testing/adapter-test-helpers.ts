import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { LicenseRecord } from "../store/license-record.ts";
import { licenseHistories } from "../data/import/license-history.ts";
import { mergeRecords, type ObservedIn, type SourceInfo } from "../data/import/merge-records.ts";
import { readSourceFile, type ReadFile } from "../data/import/read-source-file.ts";
import { sourceFile } from "../data/readers/source-file.ts";
import type { SourceAdapter } from "../data/sources/source-adapter.ts";

/** A file of the real agency exports in ../shared/data (next to the repository), read where it is. */
export function sharedData(path: string): string {
  return fileURLToPath(new URL(`../../../shared/data/${path}`, import.meta.url));
}

/**
 * What an import makes of these files, without a database: each file read as the import reads it
 * (in the order given, as if imported one after another), and the records merged as the state's
 * live records would be, by license number, with the source and date each comes from.
 */
export async function readAll(adapter: SourceAdapter, paths: string[], options: { asOf?: string } = {}) {
  const files: (ReadFile & { path: string })[] = [];
  const sources: SourceInfo[] = [];
  const observations: ObservedIn[] = [];
  for (const [index, path] of paths.entries()) {
    const file = sourceFile(path);
    const inspection = await adapter.inspect(file);
    const read = await readSourceFile(adapter, file, inspection, { asOf: options.asOf, today: "2026-11-22" });
    const id = index + 1;
    files.push({ ...read, path });
    sources.push({
      id,
      adapter: adapter.name,
      family: inspection.family,
      kind: adapter.kind,
      partial: inspection.partial ? 1 : 0,
      as_of: read.asOf,
    });
    read.observations.forEach((o, seq) => observations.push({ ...o, sourceId: id, seq }));
  }
  const refused: { license: string; reason: string }[] = [];
  const merged = mergeRecords(
    sources,
    observations,
    () => adapter,
    (license, reason) => refused.push({ license, reason }),
  );
  const records = new Map<string, { record: LicenseRecord; asOf: string | null; path: string }>(
    merged.map((m) => [m.record.license, { record: m.record, asOf: m.asOf, path: paths[m.sourceId! - 1]! }]),
  );
  const skips = files.flatMap((f) => f.skips.list().flatMap((s) => s.examples.map((at) => ({ at, skip: s.reason }))));
  return {
    records,
    /** What the merge gives the store: each record with its source, its date and the fields older sources give. */
    merged,
    /** Each license's history as the import keeps it, sources by their place in `paths` (from 1). */
    histories: licenseHistories(sources, observations, () => adapter),
    files,
    /** Rows read, over all the files. */
    outcomes: files.reduce((n, f) => n + f.rowsRead, 0),
    refused,
    /** Every skip reason, once per row (the tallies keep five places a reason; counts are in `files`). */
    reasons: files.flatMap((f) => f.skips.list().flatMap((s) => Array<string>(s.count).fill(s.reason))),
    skips,
  };
}

/** The dates of a record as the contract keys them, under its own state. */
export function datesOf(record: LicenseRecord) {
  return record.dates[record.state]!;
}

/** A temporary folder for hand-made files; `done()` removes it. */
export function tempFolder(prefix = "license-import-") {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, path: (name: string) => join(dir, name), done: () => rmSync(dir, { recursive: true, force: true }) };
}
