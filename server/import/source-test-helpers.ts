import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { RowRef, SourceRecord } from "./row-outcome.ts";
import type { SourceAdapter } from "./source-adapter.ts";
import { sourceFile } from "./source-file.ts";

/** A file of the real agency exports in ../shared/data (next to the repository), read where it is. */
export function sharedData(path: string): string {
  return fileURLToPath(new URL(`../../../shared/data/${path}`, import.meta.url));
}

/** Everything an adapter makes of some files: records by license number, and skips in order. */
export async function readAll(adapter: SourceAdapter, paths: string[]) {
  const records = new Map<string, { at: RowRef; record: SourceRecord; rows: number }>();
  const skips: { at: RowRef; skip: string }[] = [];
  let outcomes = 0;
  for await (const outcome of adapter.read(paths.map((p) => sourceFile(p)))) {
    outcomes++;
    if ("skip" in outcome) skips.push(outcome);
    else if (!records.has(outcome.record.license))
      records.set(outcome.record.license, { ...outcome, rows: outcome.rows ?? 1 });
  }
  return { records, skips, outcomes, reasons: skips.map((s) => s.skip) };
}

/** A temporary folder for hand-made files; `done()` removes it. */
export function tempFolder(prefix = "license-import-") {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, path: (name: string) => join(dir, name), done: () => rmSync(dir, { recursive: true, force: true }) };
}
