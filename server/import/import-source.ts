import { stat } from "node:fs/promises";
import type { LicenseRecord } from "../store/license-record.ts";
import type { Db } from "../store/open-database.ts";
import { replaceState } from "../store/replace-state.ts";
import { formatDate } from "../store/timestamp.ts";
import { toContractRecord } from "./contract-gate.ts";
import { RowProblem, SourceFileError } from "./row-outcome.ts";
import type { SourceAdapter } from "./source-adapter.ts";
import { sourceFile } from "./source-file.ts";
import { SkipTally } from "./skip-tally.ts";

export interface ImportProgress {
  rowsRead: number;
  bytesRead: number;
  totalBytes: number;
  seconds: number;
  /** Every row is read; the store is writing the last batch and its search index. */
  allRead: boolean;
}

export interface ImportOptions {
  /** Used when no file states its as-of date. */
  asOf?: string;
  /** Defaults to the system clock; tests fix it. */
  now?: () => Date;
  onProgress?: (progress: ImportProgress) => void;
}

export interface ImportResult {
  source: string;
  state: string;
  files: { path: string; layout: string }[];
  asOf: string;
  asOfFrom: "file" | "option" | "import date";
  /** Source rows read, skipped ones included. */
  rowsRead: number;
  /** Rows the source itself could not use (the rest became licenses). */
  rowsSkipped: number;
  /** Licenses the rows made (fewer than the rows when a source folds many rows into one license). */
  licenses: number;
  imported: number;
  skips: SkipTally;
  /** The whole import. */
  seconds: number;
  /** Reading, mapping, checking and writing the rows: the part that grows with each row. */
  rowSeconds: number;
}

const PROGRESS_EVERY_ROWS = 1000;

/**
 * Imports the files of one source as its state's whole data set, replacing what was there in one
 * step: until the new set is complete, readers see the old one, and a failure leaves the old one.
 * Throws SourceFileError (naming the file) for an unreadable file, an unknown layout, or no usable row.
 */
export async function importSource(
  db: Db,
  adapter: SourceAdapter,
  paths: readonly string[],
  options: ImportOptions = {},
): Promise<ImportResult> {
  const now = options.now ?? (() => new Date());
  if (paths.length === 0) throw new SourceFileError("no files given to import");
  const sizes = await Promise.all(paths.map(fileSize));
  const files: ImportResult["files"] = [];
  const stated: string[] = [];
  for (const path of paths) {
    const inspection = await adapter.inspect(sourceFile(path));
    files.push({ path, layout: inspection.layout });
    if (inspection.asOf) stated.push(inspection.asOf);
  }
  const statedAsOf = stated.sort().at(-1);
  const asOf = statedAsOf ?? options.asOf ?? formatDate(now());
  const asOfFrom = statedAsOf ? "file" : options.asOf ? "option" : "import date";

  const totalBytes = sizes.reduce((a, b) => a + b, 0);
  let bytesRead = 0;
  const sources = paths.map((path) => sourceFile(path, (n) => (bytesRead += n)));
  const skips = new SkipTally();
  let rowsRead = 0;
  let rowsSkipped = 0;
  let licenses = 0;
  let usable = 0;
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  const report = (allRead = false) =>
    options.onProgress?.({ rowsRead, bytesRead, totalBytes, seconds: seconds(), allRead });

  async function* records(): AsyncGenerator<LicenseRecord> {
    const seen = new Set<string>();
    let nextReport = PROGRESS_EVERY_ROWS;
    for await (const outcome of adapter.read(sources)) {
      if ("skip" in outcome) {
        rowsRead++;
        rowsSkipped++;
        skips.add(outcome.at, outcome.skip);
      } else {
        rowsRead += outcome.rows ?? 1;
        licenses++;
        const license = outcome.record.license;
        if (seen.has(license)) {
          skips.add(outcome.at, "duplicate license number (the first usable row with it is kept)");
        } else {
          try {
            const record = toContractRecord(outcome.record);
            seen.add(license);
            usable++;
            yield record;
          } catch (error) {
            if (!(error instanceof RowProblem)) throw error;
            skips.add(outcome.at, error.message);
          }
        }
      }
      if (rowsRead >= nextReport) {
        nextReport = rowsRead + PROGRESS_EVERY_ROWS;
        report();
      }
    }
    if (usable === 0) throw new SourceFileError(noUsableRows(paths, rowsRead, skips));
    report(true);
  }

  let rowSeconds = 0;
  const written = await replaceState(db, { state: adapter.state, source: adapter.name, asOf }, records(), {
    // toContractRecord has checked every record against the contract.
    validate: false,
    onIndexing: () => (rowSeconds = seconds()),
  });
  return {
    source: adapter.name,
    state: adapter.state,
    files,
    asOf,
    asOfFrom,
    rowsRead,
    rowsSkipped,
    licenses,
    imported: written.records,
    skips,
    seconds: seconds(),
    rowSeconds,
  };
}

async function fileSize(path: string): Promise<number> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new SourceFileError(`${path}: is not a file`);
    return info.size;
  } catch (error) {
    if (error instanceof SourceFileError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : (error as Error).message;
    throw new SourceFileError(`${path}: cannot be read: ${why}`);
  }
}

function noUsableRows(paths: readonly string[], rowsRead: number, skips: SkipTally): string {
  const reasons = skips
    .list()
    .slice(0, 3)
    .map((s) => `${s.reason} (${s.count})`)
    .join("; ");
  const what = rowsRead === 0 ? "has no data rows" : `has no usable row: all ${rowsRead} were skipped: ${reasons}`;
  return `${paths.join(", ")}: ${what}. The state's existing data was left as it was.`;
}
