import Papa from "papaparse";

export const CSV_COLUMNS = [
  "row",
  "state",
  "license",
  "matched_license",
  "verdict",
  "reason",
  "status",
  "business",
  "owner",
  "expires",
  "source",
  "as_of",
  "checked_at",
  "link",
] as const;

export type CsvRecord = Record<(typeof CSV_COLUMNS)[number], string>;

/**
 * A cell a spreadsheet would read as a formula (OWASP's CSV injection list, and NUL as ASVS adds):
 * papaparse's own `escapeFormulae: true` misses one whose text goes on past a line break.
 */
const FORMULA_START = /^[=+\-@\t\r\0]/;

/**
 * The verdicts of a list of licenses, as the list check and the watchlist export them: UTF-8 text with a
 * byte-order mark (so Excel reads it as UTF-8), a header row, CRLF line ends, one line per record in the order given.
 */
export function verdictCsv(records: readonly CsvRecord[]): string {
  const lines = [CSV_COLUMNS, ...records.map((record) => CSV_COLUMNS.map((column) => record[column]))];
  const csv = Papa.unparse(lines, { newline: "\r\n", escapeFormulae: FORMULA_START });
  return `\uFEFF${csv}\r\n`;
}

/** Hands `csv` to the browser as a download named `fileName`. */
export function downloadCsv(csv: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: "text/csv;charset=utf-8" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
