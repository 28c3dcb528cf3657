import { cellText } from "./cell-text.ts";

/** One row of a table, read through its layout's column names. */
export interface TableRow<K extends string> {
  /** The cell's text, trimmed; "" when empty or missing. */
  text(key: K): string;
  /** The cell as the reader gave it (a Date or number from a spreadsheet, else a string). */
  value(key: K): unknown;
}

/**
 * A layout a source's files come in: the agency's header for each column we read, and how a row
 * becomes a value. Headers match ignoring case, spaces and punctuation, so `License.Serial.Number`
 * (R's write.csv) and `License Serial Number` are the same column.
 */
export interface TableLayout<T, K extends string = string> {
  name: string;
  columns: Record<K, string>;
  toValue(row: TableRow<K>): T;
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
  constructor(
    private readonly cells: unknown[],
    private readonly index: Record<K, number>,
  ) {}

  text(key: K): string {
    return cellText(this.cells[this.index[key]]);
  }

  value(key: K): unknown {
    return this.cells[this.index[key]];
  }
}
