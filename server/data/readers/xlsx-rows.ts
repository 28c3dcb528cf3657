import type { Readable } from "node:stream";
import type { RawRow } from "./table.ts";

/**
 * The rows of the first worksheet of an .xlsx file, with their sheet row numbers; date cells come
 * as Dates. `open` is called once exceljs is loaded: a stream opened before would flow (its byte
 * counter listens) and lose its first chunks while the module loads. `onSheet` hears the
 * worksheet's name before its first row (when the workbook's part naming it comes first in the zip,
 * as Excel writes it; else exceljs's stand-in, `Sheet1`).
 */
export async function* xlsxRows(open: () => Readable, onSheet?: (name: string) => void): AsyncGenerator<RawRow> {
  // Loaded on the first spreadsheet, not at every start: all of exceljs took 0.45 s to load, which
  // an import of CSV files alone (most sources) paid for nothing. Its streaming reader alone, by its
  // path in the package, takes half that: the package's entry also loads its writers (archiver, fast-csv).
  const { default: WorkbookReader } = await import("exceljs/lib/stream/xlsx/workbook-reader.js");
  const input = open();
  // Styles are read because they are what marks a number cell as a date.
  const workbook = new WorkbookReader(input, {
    worksheets: "emit",
    sharedStrings: "cache",
    styles: "cache",
    hyperlinks: "ignore",
    entries: "ignore",
  });
  try {
    for await (const sheet of workbook) {
      // exceljs's types leave out the name its reader sets.
      const { name } = sheet as typeof sheet & { name?: string };
      if (name !== undefined) onSheet?.(name);
      for await (const row of sheet) {
        // row.values is 1-based: index 0 is always empty.
        yield { line: row.number, cells: (row.values as unknown[]).slice(1) };
      }
      return;
    }
  } finally {
    input.destroy();
  }
}
