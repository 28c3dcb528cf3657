import { csvRows } from "./csv-rows.ts";
import { readTable, type OpenTable, type TableOutcome } from "./read-table.ts";
import { SourceFileError } from "./row-outcome.ts";
import { sniffFormat } from "./sniff-format.ts";
import type { SourceFile } from "./source-file.ts";
import type { TableLayout } from "./table-layout.ts";
import { xlsxRows } from "./xlsx-rows.ts";

/** Opens a CSV or .xlsx file (told apart by content, not name) as a table of one of these layouts. */
export async function openTableFile<T>(file: SourceFile, layouts: readonly TableLayout<T>[]): Promise<OpenTable<T>> {
  const format = await sniffFormat(file.path).catch((error: Error) => unreadable(file, error));
  if (format === "gzip" || format === "tar") {
    throw new SourceFileError(`${file.path}: is an archive; expected a CSV or .xlsx file`);
  }
  const rows = format === "zip" ? xlsxRows(file.open()) : csvRows(file.open());
  try {
    return await readTable(file, rows, layouts, { fixedWidth: format === "text" });
  } catch (error) {
    return unreadable(file, error as Error);
  }
}

/** The rows of a table file; a failure part way (a truncated workbook, a read error) names the file. */
export async function* readTableFile<T>(
  file: SourceFile,
  layouts: readonly TableLayout<T>[],
): AsyncGenerator<TableOutcome<T>> {
  const table = await openTableFile(file, layouts);
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
