import { stat } from "node:fs/promises";
import { basename, join } from "node:path";
import type { Db } from "../../store/open-database.ts";
import { replaceState } from "../../store/replace-state.ts";
import { createRefusalsRepo } from "../../store/refusals-repo.ts";
import { createSourcesRepo } from "../../store/sources-repo.ts";
import { formatDate } from "../../store/timestamp.ts";
import { findSourceAdapter } from "../sources/adapters.ts";
import { keepInArchive } from "./file-archive.ts";
import { historiesToStore, licenseHistories } from "./license-history.ts";
import { mergeRecords, type ObservedIn } from "./merge-records.ts";
import { ReasonTally } from "./reason-tally.ts";
import { DEFAULT_MAX_SHRINK, ImportRefusedError, shrinkOf, shrinkReason, tooShrunk } from "./shrink-guard.ts";
import { readSourceFile } from "./read-source-file.ts";
import { sha256Of, sourceFile, type SourceFile } from "../readers/source-file.ts";
import { SourceFileError, type AsOfFrom, type FileInspection, type SourceAdapter } from "../sources/source-adapter.ts";

export interface ImportProgress {
  rowsRead: number;
  bytesRead: number;
  totalBytes: number;
  seconds: number;
  /** Every row is read; the store is making the state's records and their search index. */
  allRead: boolean;
}

export interface ImportOptions {
  /** The as-of date of files that state none (else the newest date in each file stands for it). */
  asOf?: string;
  /** Start the state over: its other sources, and what they said, go. */
  replace?: boolean;
  /** Defaults to the system clock; tests fix it. */
  now?: () => Date;
  onProgress?: (progress: ImportProgress) => void;
  /** Where each file read is kept, as read: `<archive>/<adapter>/<sha256><ext>`. None: not kept. */
  archive?: string;
  /** The share of the licenses the state serves now (percent) the import may stop serving; default 10. */
  maxShrink?: number;
  /** Go ahead whatever share stops being served: the agency's list really shrank. */
  acceptShrink?: boolean;
  /** How a refusal names a file (a sync's download sits in a temporary folder): default, its name without its folder. */
  shownAs?: (path: string) => string;
}

/** What one file became. */
export interface FileReport {
  path: string;
  /** Its copy in the archive, when the import keeps one. */
  archived: string | null;
  layout: string;
  title: string;
  sourceId: number;
  /** Set when an earlier import already took this exact file (same SHA-256): it was not read again. */
  alreadyLoadedAt: string | null;
  asOf: string | null;
  asOfFrom: AsOfFrom;
  coverage: string;
  rowsRead: number;
  /** What it said of licenses: one per license for a roster, one per change for change reports. */
  observations: number;
  /** The licenses it names: the records it was read into. */
  licenses: number;
  /** The state's live records that are this file's word. */
  served: number;
  repairs: ReasonTally;
  skips: ReasonTally;
}

export interface ImportResult {
  source: string;
  agency: string;
  state: string;
  files: FileReport[];
  /** The state's live records after the import. */
  records: number;
  /** Licenses the state served before (from real sources) that it no longer serves, and the first of them. */
  dropped: { count: number; examples: string[] };
  /** Licenses whose sources together do not make a record the contract accepts, by reason. */
  refused: ReasonTally<string>;
  /** Whether the state's records were made again (not when every file was already loaded). */
  rebuilt: boolean;
  /** The whole import. */
  seconds: number;
  /** Reading, checking and storing the rows: the part that grows with each row. */
  rowSeconds: number;
}

const PROGRESS_EVERY_ROWS = 1000;

/**
 * Imports files of one source into their state: each file becomes a source of the state, what it
 * says of each license is kept, and the state's live records are made again from every source it
 * has (the newest source's facts win; see merge-records.ts). Until the new records are complete,
 * readers see the old ones, and a failure leaves them. A file already imported (same SHA-256) is
 * not read again. Throws SourceFileError (naming the file) for an unreadable file, an unknown
 * layout, or a file without one usable row; ImportRefusedError (recorded in `refusals`) for a file
 * without one usable row, or new records that would stop serving more than `maxShrink` percent of
 * the licenses the state serves now.
 */
export async function importSource(
  db: Db,
  adapter: SourceAdapter,
  paths: readonly string[],
  options: ImportOptions = {},
): Promise<ImportResult> {
  const now = options.now ?? (() => new Date());
  const shown = options.shownAs ?? ((path: string) => basename(path));
  if (paths.length === 0) throw new SourceFileError("no files given to import");
  const sizes = await Promise.all(paths.map(fileSize));
  const totalBytes = sizes.reduce((a, b) => a + b, 0);
  let bytesRead = 0;
  // A file is inspected and read through one SourceFile: the inspection of a spreadsheet keeps it
  // open where its header was found, and reading goes on from there (its head is parsed once).
  // Progress counts a file's bytes from when its rows are read, the inspection's part included.
  const inspected: {
    path: string;
    bytes: number;
    file: SourceFile;
    inspection: FileInspection;
    sha256: string;
    archived: string | null;
    /** Reading its rows, not inspecting it: its bytes count. */
    startRows: () => void;
  }[] = [];
  // When the import fails, files kept open and not read are let go (a read one is closed already);
  // a failure to close one would only hide the error that matters.
  const closeUnread = async () => {
    for (const { inspection } of inspected) await inspection.close?.().catch(() => undefined);
  };
  try {
    for (const [index, path] of paths.entries()) {
      let early = 0;
      let counting = false;
      const file = sourceFile(path, (n) => {
        if (counting) bytesRead += n;
        else early += n;
      });
      const inspection = await adapter.inspect(file, { keepOpen: true });
      const entry = {
        path,
        bytes: sizes[index]!,
        file,
        inspection,
        sha256: "",
        archived: null as string | null,
        startRows: () => {
          counting = true;
          // A file not kept open is read again from its start.
          if (inspection.close) bytesRead += early;
        },
      };
      inspected.push(entry);
      entry.sha256 = await sha256Of(path);
      if (options.archive)
        entry.archived = await keepInArchive(path, entry.sha256, join(options.archive, adapter.name));
    }
  } catch (error) {
    await closeUnread();
    throw error;
  }

  const sources = createSourcesRepo(db);
  const refusals = createRefusalsRepo(db);
  /** Records the refusal of these files for a later look: the catch below drops what the import wrote, not this. */
  const refuse = (refused: readonly { path: string; sha256: string }[], reason: string) => {
    db.transaction(() => {
      for (const { path, sha256 } of refused)
        refusals.record({ state: adapter.state, adapter: adapter.name, file: basename(path), sha256, reason }, now());
    })();
    return new ImportRefusedError(reason);
  };
  sources.dropAbandoned(adapter.state);
  let rowsRead = 0;
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  const report = (allRead = false) =>
    options.onProgress?.({ rowsRead, bytesRead, totalBytes, seconds: seconds(), allRead });
  let nextReport = PROGRESS_EVERY_ROWS;
  const onRow = () => {
    rowsRead++;
    if (rowsRead >= nextReport) {
      nextReport = rowsRead + PROGRESS_EVERY_ROWS;
      report();
    }
  };

  const files: FileReport[] = [];
  const loading: number[] = [];
  // What the new files said, kept at hand: the state's records are made from them without reading them back.
  const fresh: ObservedIn[] = [];
  try {
    for (const { path, bytes, file, inspection, sha256, archived, startRows } of inspected) {
      const same = options.replace ? undefined : sources.sameFile(adapter.state, sha256);
      if (same) {
        await inspection.close?.();
        bytesRead += bytes;
        files.push({
          path,
          archived,
          layout: inspection.layout,
          title: same.title,
          sourceId: same.id,
          alreadyLoadedAt: same.loaded_at,
          asOf: same.as_of,
          asOfFrom: same.as_of_from as AsOfFrom,
          coverage: same.coverage,
          rowsRead: 0,
          observations: 0,
          licenses: 0,
          served: 0,
          repairs: new ReasonTally(),
          skips: new ReasonTally(),
        });
        continue;
      }
      startRows();
      const read = await readSourceFile(adapter, file, inspection, {
        asOf: options.asOf,
        today: formatDate(now()),
        onRow,
      });
      if (read.observations.length === 0)
        throw refuse([{ path, sha256 }], noUsableRows(shown(path), read.rowsRead, read.skips));
      const sourceId = sources.begin(
        {
          state: adapter.state,
          adapter: adapter.name,
          family: inspection.family,
          kind: adapter.kind,
          partial: inspection.partial,
          agency: adapter.agency,
          title: inspection.title,
          coverage: read.coverage,
          file: file.name,
          sha256,
          bytes,
          asOf: read.asOf,
          asOfFrom: read.asOfFrom,
        },
        now(),
      );
      loading.push(sourceId);
      db.transaction(() => sources.observe(sourceId, read.observations))();
      read.observations.forEach((o, seq) => fresh.push(Object.assign(o, { sourceId, seq })));
      files.push({
        path,
        archived,
        layout: inspection.layout,
        title: inspection.title,
        sourceId,
        alreadyLoadedAt: null,
        asOf: read.asOf,
        asOfFrom: read.asOfFrom,
        coverage: read.coverage,
        rowsRead: read.rowsRead,
        observations: read.observations.length,
        licenses: new Set(read.observations.map((o) => o.license)).size,
        served: 0,
        repairs: read.repairs,
        skips: read.skips,
      });
    }
    report(true);
    const rowSeconds = seconds();
    const refused = new ReasonTally<string>();
    const result = { source: adapter.name, agency: adapter.agency, state: adapter.state, files, refused, rowSeconds };
    if (loading.length === 0 && !options.replace) {
      const dropped = { count: 0, examples: [] };
      return { ...result, dropped, records: countLive(db, adapter.state), rebuilt: false, seconds: seconds() };
    }

    // Every source of the state, the new ones included (all but the new ones go with --replace).
    const keep = (id: number) => !options.replace || loading.includes(id);
    const stateSources = sources.list(adapter.state, loading).filter((s) => keep(s.id) && s.adapter !== "demo");
    const earlier = options.replace ? [] : sources.observationsOf(adapter.state, { except: loading });
    const observed = [...earlier, ...fresh];
    const adapterOf = (name: string) => findSourceAdapter(name) ?? adapter;
    const merged = mergeRecords(stateSources, observed, adapterOf, (license, reason) => refused.add(license, reason));
    const histories = licenseHistories(stateSources, observed, adapterOf);
    const served = new Map<number, number>();
    for (const m of merged) served.set(m.sourceId!, (served.get(m.sourceId!) ?? 0) + 1);
    for (const f of files) f.served = served.get(f.sourceId) ?? 0;

    // A list far shorter than the one served is more often a cut-off download than licenses gone.
    const shrink = shrinkOf(
      db,
      adapter.state,
      merged.map((m) => m.record.license),
    );
    const maxShrink = options.maxShrink ?? DEFAULT_MAX_SHRINK;
    if (!options.acceptShrink && tooShrunk(shrink, maxShrink)) {
      const read = inspected.filter((f) => files.some((r) => r.path === f.path && r.alreadyLoadedAt === null));
      throw refuse(
        read,
        shrinkReason(
          shrink,
          adapter.state,
          // The page and the summary name the file, not where an operator or a sync happened to keep it.
          read.map((f) => shown(f.path)),
          maxShrink,
        ),
      );
    }

    const asOf =
      stateSources
        .map((s) => s.as_of)
        .filter((d) => d !== null)
        .sort()
        .at(-1) ?? null;
    const names = [...new Set(stateSources.map((s) => s.adapter))].join(", ");
    const written = await replaceState(db, { state: adapter.state, source: names, asOf }, merged, {
      // The records were checked as they were read or folded.
      validate: false,
      histories: historiesToStore(histories, merged),
      withFlip: () => {
        // --replace keeps only this import's sources. Demo data, and sources from before the store
        // kept what each said, have no observations: the new records replace theirs, so they go.
        if (options.replace) sources.dropAllBut(adapter.state, loading);
        sources.dropSilent(adapter.state, loading);
        sources.markLoaded(loading);
      },
    });
    const dropped = { count: shrink.lost.length, examples: shrink.lost.slice(0, 5) };
    return { ...result, dropped, records: written.records, rebuilt: true, seconds: seconds() };
  } catch (error) {
    await closeUnread();
    sources.dropAbandoned(adapter.state);
    throw error;
  }
}

function countLive(db: Db, state: string): number {
  return (
    (db.prepare(`SELECT records FROM datasets WHERE state = ? AND status = 'live'`).pluck().get(state) as
      number | undefined) ?? 0
  );
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

function noUsableRows(path: string, rowsRead: number, skips: ReasonTally): string {
  const reasons = skips
    .list()
    .slice(0, 3)
    .map((s) => `${s.reason} (${s.count})`)
    .join("; ");
  const what = rowsRead === 0 ? "has no data rows" : `has no usable row: all ${rowsRead} were skipped: ${reasons}`;
  return `${path}: ${what}. The state's existing data was left as it was.`;
}
