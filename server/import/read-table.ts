import { cellText } from "./cell-text.ts";
import type { RawRow } from "./raw-row.ts";
import { RowProblem, SourceFileError, type RowRef } from "./row-outcome.ts";
import { CellRow, locateColumns, type TableLayout } from "./table-layout.ts";

/** How far down a sheet the header row may be (report titles and dates sit above it). */
const HEADER_SEARCH_ROWS = 10;

export type TableOutcome<T> = { at: RowRef; value: T } | { at: RowRef; skip: string };

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
  throw new SourceFileError(unknownLayoutMessage(file.path, preamble, layouts));
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
        yield { at, value: layout.toValue(new CellRow(row.cells, index)) };
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
