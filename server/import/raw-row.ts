/** A row as a file reader gives it: its cells, or why the reader could not make cells of it. */
export type RawRow = { line: number; cells: unknown[] } | { line: number; problem: string };
