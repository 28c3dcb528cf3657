import { cellText } from "./cell-text.ts";
import { csvRows } from "./csv-rows.ts";
import { sniffFormat, type FileFormat } from "./sniff-format.ts";
import type { SourceFile } from "./source-file.ts";
import { sqliteRows, sqliteTables } from "./sqlite-rows.ts";
import { xlsRows } from "./xls-rows.ts";
import { xlsxRows } from "./xlsx-rows.ts";
import { RowProblem, SourceFileError, UnknownLayoutError, type RowRef } from "../sources/source-adapter.ts";

// A table in a CSV, .xlsx or .xls file, or a SQLite database: its layouts (which agency header means which column), finding the
// header row, and its rows as values or skips.

/** A row as a file reader gives it: its cells, or why the reader could not make cells of it. */
export type RawRow = { line: number; cells: unknown[] } | { line: number; problem: string };

/** One row of a table, read through its layout's column names. */
export interface TableRow<K extends string> {
  /** The cell's text, trimmed; "" when empty or missing. */
  text(key: K): string;
  /** The cell as the reader gave it (a Date or number from a spreadsheet, else a string). */
  value(key: K): unknown;
  /** Notes what was mended to keep the row (a split ZIP joined, say): the import summary counts each reason. */
  repaired(reason: string): void;
}

/**
 * A layout a source's files come in: the agency's header for each column we read, and how a row
 * becomes a value. Headers match ignoring case, spaces and punctuation, so `License.Serial.Number`
 * (R's write.csv) and `License Serial Number` are the same column.
 */
export interface TableLayout<T, K extends string = string> {
  name: string;
  /** In a SQLite database, the table the rows are in (its column names are the header); absent for a sheet or CSV. */
  table?: string;
  columns: Record<K, string>;
  toValue(row: TableRow<K>): T;
  /** The day a row says it was true on (a row an API was asked for on a day), when each row says it. */
  rowAsOf?(row: TableRow<K>): string | null;
}

/** A layout, its column names checked wherever its rows are read. */
export function tableLayout<T, K extends string>(layout: TableLayout<T, K>): TableLayout<T, K> {
  return layout;
}

export function normalizeHeader(header: unknown): string {
  return cellText(header)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "");
}

/** Where each of the layout's columns is in this header row, or the columns it lacks. */
export function locateColumns<K extends string>(
  layout: TableLayout<unknown, K>,
  header: unknown[],
): { index: Record<K, number> } | { missing: string[] } {
  const positions = new Map<string, number>();
  header.forEach((cell, i) => {
    const name = normalizeHeader(cell);
    if (name && !positions.has(name)) positions.set(name, i);
  });
  const index = {} as Record<K, number>;
  const missing: string[] = [];
  for (const key of Object.keys(layout.columns) as K[]) {
    const at = positions.get(normalizeHeader(layout.columns[key]));
    if (at === undefined) missing.push(layout.columns[key]);
    else index[key] = at;
  }
  return missing.length ? { missing } : { index };
}

/** A row accessor over raw cells (a class: no closures made per row). */
export class CellRow<K extends string> implements TableRow<K> {
  /** Made on the first repair: most rows need none. */
  repairs: string[] | undefined;

  constructor(
    private readonly cells: unknown[],
    private readonly index: Record<K, number>,
  ) {}

  repaired(reason: string): void {
    (this.repairs ??= []).push(reason);
  }

  text(key: K): string {
    return cellText(this.cells[this.index[key]]);
  }

  value(key: K): unknown {
    return this.cells[this.index[key]];
  }
}

/** How far down a sheet the header row may be (report titles and dates sit above it). */
const HEADER_SEARCH_ROWS = 10;

export type TableOutcome<T> =
  { at: RowRef; value: T; repairs?: readonly string[]; asOf?: string | null } | { at: RowRef; skip: string };

export interface OpenTable<T> {
  layout: TableLayout<T>;
  /** The rows above the header: titles, report dates. */
  preamble: unknown[][];
  /** The data rows as values or skips. */
  rows: AsyncGenerator<TableOutcome<T>>;
  /** Stops reading without going through the rows. */
  close(): Promise<void>;
}

/**
 * Finds the header row among the first rows and the layout it belongs to, and reads the rows
 * under it. No matching header is a SourceFileError that names the file and what was expected.
 * `fixedWidth`: every row must have the header's number of cells (CSV; spreadsheets omit empty
 * trailing cells).
 */
export async function readTable<T>(
  file: { name: string; path: string },
  source: AsyncIterable<RawRow>,
  layouts: readonly TableLayout<T>[],
  options: { fixedWidth: boolean },
): Promise<OpenTable<T>> {
  const iterator = source[Symbol.asyncIterator]();
  const preamble: unknown[][] = [];
  for (let seen = 0; seen < HEADER_SEARCH_ROWS; seen++) {
    const next = await iterator.next();
    if (next.done) break;
    if (!("cells" in next.value)) continue;
    const header = next.value.cells;
    for (const layout of layouts) {
      const located = locateColumns(layout, header);
      if ("index" in located) {
        const width = options.fixedWidth ? header.length : null;
        return {
          layout,
          preamble,
          rows: tableRows(file.name, iterator, layout, located.index, width),
          close: async () => void (await iterator.return?.(undefined)),
        };
      }
    }
    preamble.push(header);
  }
  await iterator.return?.(undefined);
  throw new UnknownLayoutError(unknownLayoutMessage(file.path, preamble, layouts));
}

async function* tableRows<T>(
  file: string,
  iterator: AsyncIterator<RawRow>,
  layout: TableLayout<T>,
  index: Record<string, number>,
  width: number | null,
): AsyncGenerator<TableOutcome<T>> {
  try {
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      const row = next.value;
      const at = { file, line: row.line };
      if (!("cells" in row)) {
        yield { at, skip: row.problem };
        continue;
      }
      if (row.cells.every((cell) => cellText(cell) === "")) continue;
      if (width !== null && row.cells.length !== width) {
        yield { at, skip: `wrong number of columns (${row.cells.length}, the header has ${width})` };
        continue;
      }
      try {
        const cells = new CellRow(row.cells, index);
        const value = layout.toValue(cells);
        if (layout.rowAsOf) yield { at, value, repairs: cells.repairs, asOf: layout.rowAsOf(cells) };
        else yield { at, value, repairs: cells.repairs };
      } catch (error) {
        if (!(error instanceof RowProblem)) throw error;
        yield { at, skip: error.message };
      }
    }
  } finally {
    await iterator.return?.(undefined);
  }
}

function unknownLayoutMessage(file: string, rows: unknown[][], layouts: readonly TableLayout<unknown>[]): string {
  const firstRow = rows.find((cells) => cells.some((c) => cellText(c) !== "")) ?? [];
  const found = firstRow.map(cellText).filter(Boolean).slice(0, 12);
  const expected = layouts
    .map((layout) => {
      const located = locateColumns(layout, firstRow);
      const missing = "missing" in located ? located.missing : [];
      return (
        `  - ${layout.name}: needs columns ${Object.values(layout.columns).join(", ")}` +
        (missing.length < Object.keys(layout.columns).length ? ` (missing ${missing.join(", ")})` : "")
      );
    })
    .join("\n");
  return (
    `${file}: unknown layout: no header row in the first ${HEADER_SEARCH_ROWS} rows matches a known layout.\n` +
    `Expected one of:\n${expected}\n` +
    `Found: ${found.length ? found.join(", ") : "no header at all"}`
  );
}

/**
 * Opens a CSV, .xlsx or .xls file or a SQLite database (told apart by content, not name) as a table
 * of one of these layouts; `sheet` is a spreadsheet's worksheet name (agencies date a list there),
 * null for a CSV or a database. A layout that names a database table is looked for in databases only.
 */
export async function openTableFile<T>(
  file: SourceFile,
  layouts: readonly TableLayout<T>[],
): Promise<OpenTable<T> & { format: FileFormat; sheet: string | null }> {
  const format = await sniffFormat(file.path).catch((error: Error) => unreadable(file, error));
  if (format === "gzip" || format === "tar") {
    throw new UnknownLayoutError(`${file.path}: is an archive; expected a CSV, .xlsx or .xls file`);
  }
  if (format === "sqlite") {
    try {
      return { ...(await openDatabaseTable(file, layouts)), format, sheet: null };
    } catch (error) {
      return unreadable(file, error as Error);
    }
  }
  const sheetLayouts = layouts.filter((layout) => layout.table === undefined);
  if (sheetLayouts.length === 0) {
    const tables = layouts.map((layout) => layout.table).join(", ");
    throw new UnknownLayoutError(`${file.path}: is not a SQLite database; expected one with table ${tables}`);
  }
  const about: { sheet: string | null } = { sheet: null };
  const fresh = () => {
    const onSheet = (name: string) => void (about.sheet = name);
    return format === "zip"
      ? xlsxRows(() => file.open(), onSheet)
      : format === "xls"
        ? xlsRows(() => file.open(), onSheet)
        : csvRows(file.open());
  };
  try {
    const rows = sharedHeads.has(file) ? await fromSharedHead(file, about, fresh) : fresh();
    // The sheet's name is heard before its first row, so before the header is found.
    const table = await readTable(file, rows, sheetLayouts, { fixedWidth: format === "text" });
    return { ...table, format, sheet: about.sheet };
  } catch (error) {
    return unreadable(file, error as Error);
  }
}

/**
 * Files whose first rows are read once for every layout and adapter tried on them: `--all` tries
 * each known source on each file, and a spreadsheet's head (an .xls is parsed whole) costs as much
 * as a small file's import. Rows past the head, which looking for a header never reaches, are read
 * afresh.
 */
const sharedHeads = new WeakMap<SourceFile, { sheet: string | null; rows: RawRow[]; done: boolean } | null>();

/** The same file, its head read once however many sources inspect it (see sharedHeads). */
export function withSharedHead(file: SourceFile): SourceFile {
  sharedHeads.set(file, null);
  return file;
}

async function fromSharedHead(
  file: SourceFile,
  about: { sheet: string | null },
  fresh: () => AsyncIterable<RawRow>,
): Promise<AsyncIterable<RawRow>> {
  let head = sharedHeads.get(file);
  if (!head) {
    const rows: RawRow[] = [];
    const iterator = fresh()[Symbol.asyncIterator]();
    let done = false;
    while (rows.length <= HEADER_SEARCH_ROWS) {
      const next = await iterator.next();
      if (next.done) {
        done = true;
        break;
      }
      rows.push(next.value);
    }
    if (!done) await iterator.return?.(undefined);
    head = { sheet: about.sheet, rows, done };
    sharedHeads.set(file, head);
  }
  about.sheet = head.sheet;
  const { rows, done } = head;
  return (async function* () {
    yield* rows;
    if (done) return;
    let skipped = 0;
    for await (const row of fresh()) if (++skipped > rows.length) yield row;
  })();
}

/** The first table of the database that a layout naming it matches, read from its first row. */
async function openDatabaseTable<T>(file: SourceFile, layouts: readonly TableLayout<T>[]): Promise<OpenTable<T>> {
  const tables = sqliteTables(file.path);
  for (const table of tables) {
    const named = layouts.filter((layout) => layout.table === table);
    if (named.length === 0) continue;
    try {
      return await readTable(file, sqliteRows(file.path, table), named, { fixedWidth: false });
    } catch (error) {
      if (!(error instanceof UnknownLayoutError)) throw error;
    }
  }
  const expected = layouts
    .map((layout) =>
      layout.table === undefined
        ? `  - ${layout.name}: a CSV, .xlsx or .xls file`
        : `  - ${layout.name}: table ${layout.table} with columns ${Object.values(layout.columns).join(", ")}`,
    )
    .join("\n");
  throw new UnknownLayoutError(
    `${file.path}: unknown layout: a SQLite database with no table of a known layout.\n` +
      `Expected one of:\n${expected}\nFound tables: ${tables.join(", ") || "none"}`,
  );
}

/**
 * The rows of a table file (from `opened`, a table openTableFile made of it, when given); a
 * failure part way (a truncated workbook, a read error) names the file.
 */
export async function* readTableFile<T>(
  file: SourceFile,
  layouts: readonly TableLayout<T>[],
  opened?: OpenTable<T>,
): AsyncGenerator<TableOutcome<T>> {
  const table = opened ?? (await openTableFile(file, layouts));
  try {
    yield* table.rows;
  } catch (error) {
    unreadable(file, error as Error);
  }
}

function unreadable(file: SourceFile, error: Error): never {
  if (error instanceof SourceFileError) throw error;
  throw new SourceFileError(`${file.path}: cannot be read: ${error.message}`);
}
