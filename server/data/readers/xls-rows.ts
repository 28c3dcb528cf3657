import type { Readable } from "node:stream";
import type { CellObject } from "@e965/xlsx";
import type { RawRow } from "./table.ts";

/**
 * The rows of the first worksheet of a legacy Excel .xls file (BIFF), with their sheet row
 * numbers, as xlsxRows gives them: empty cells are holes, rows without a cell are left out, and
 * date cells come as Dates at UTC midnight. `open` is called once the parser is loaded; `onSheet`
 * hears the worksheet's name before its first row.
 */
export async function* xlsRows(open: () => Readable, onSheet?: (name: string) => void): AsyncGenerator<RawRow> {
  // Loaded on the first .xls, not at every start, as exceljs is for .xlsx.
  const xlsx = await import("@e965/xlsx");
  // SheetJS types its format table `any`.
  const { is_date: isDate } = xlsx.SSF as { is_date: (format: string) => boolean };
  // BIFF is a compound file with its directory at the end: it is parsed whole, not streamed.
  const bytes = await readAll(open());
  const workbook = xlsx.read(bytes, { type: "buffer", dense: true, cellNF: true, cellHTML: false, cellText: false });
  const name = workbook.SheetNames[0];
  if (name === undefined) return;
  onSheet?.(name);
  const data = (workbook.Sheets[name]?.["!data"] ?? []) as (CellObject[] | undefined)[];
  const date1904 = workbook.Workbook?.WBProps?.date1904 === true;
  for (const [index, row] of data.entries()) {
    if (!row) continue;
    const cells = new Array<unknown>(row.length);
    let any = false;
    row.forEach((cell, column) => {
      const value = cellValue(cell, isDate, date1904);
      if (value === undefined) return;
      cells[column] = value;
      any = true;
    });
    if (any) yield { line: index + 1, cells };
  }
}

function cellValue(cell: CellObject | undefined, isDate: (format: string) => boolean, date1904: boolean): unknown {
  if (!cell || cell.t === "z" || cell.v === undefined) return undefined;
  if (cell.t === "e") return undefined;
  if (cell.t === "n" && typeof cell.z === "string" && isDate(cell.z)) return excelDate(cell.v as number, date1904);
  return cell.v;
}

/** A date serial as the UTC midnight (and time) it names; SheetJS's own Dates are local time. */
function excelDate(serial: number, date1904: boolean): Date {
  const days = serial + (date1904 ? 1462 : 0) - 25569;
  return new Date(Math.round(days * 86_400_000));
}

async function readAll(input: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of input) chunks.push(chunk as Buffer);
  } finally {
    input.destroy();
  }
  return Buffer.concat(chunks);
}
