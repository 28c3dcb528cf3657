import ExcelJS from "exceljs";
import type { Readable } from "node:stream";
import type { RawRow } from "./table.ts";

/** The rows of the first worksheet of an .xlsx stream, with their sheet row numbers; date cells come as Dates. */
export async function* xlsxRows(input: Readable): AsyncGenerator<RawRow> {
  // Styles are read because they are what marks a number cell as a date.
  const workbook = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    worksheets: "emit",
    sharedStrings: "cache",
    styles: "cache",
    hyperlinks: "ignore",
    entries: "ignore",
  });
  try {
    for await (const sheet of workbook) {
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
