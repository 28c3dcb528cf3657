import Papa from "papaparse";
import type { ReadProblem } from "../contract/checks.ts";
import { givenProblem } from "../contract/row-verdict.ts";
import { stateCodeOf } from "../contract/states.ts";

/** How many rows a list may hold, and what they are read for, to say why a longer one is refused. */
export interface ListLimit {
  rows: number;
  /** "verified at once": the list has 5,001 rows; at most 5,000 can be verified at once. */
  use: string;
}

export interface ListRow {
  /**
   * The line of the paste, or the row of the file, it starts on: 1-based, a header and blank lines counted, as a
   * text editor or a spreadsheet numbers them. The clerk's own numbering, shown and recorded as it is.
   */
  line: number;
  /** The state as written in the row, trimmed. */
  stateGiven: string;
  /** Its two-letter lower-case code when it names one of the 50 states or DC, else null. */
  state: string | null;
  /** The license number as given, trimmed of surrounding whitespace only (never reformatted). "" when empty. */
  license: string;
  /** The business name and address when the row has them, else "". */
  business: string;
  address: string;
  /** What reading the list found wrong with the line itself (its quotes, its columns). */
  read: ReadProblem[];
  /** Why this row cannot be checked as written, in words a clerk understands; null when fine. */
  problem: string | null;
}

export type ListInput = { rows: ListRow[]; header: boolean } | { error: string };

type Field = "state" | "license" | "business" | "address";

/** The columns of a list without a header row, in this order. */
const POSITIONAL: readonly Field[] = ["state", "license", "business", "address"];

/** Header words, lower-case with all but letters, digits and # removed: "Lic. #" is "lic#". */
const HEADER_WORDS: Record<Field, readonly string[]> = {
  state: ["state", "st", "statecode"],
  // Not "number" alone: a sheet's row-number column is often headed so.
  license: [
    "serialnumber",
    "permit",
    "permitnumber",
    ...["license", "licence", "lic", "licenseserial"].flatMap((w) =>
      ["", "number", "no", "num", "#"].map((s) => w + s),
    ),
  ],
  business: ["business", "businessname", "name", "dba", "tradename", "doingbusinessas", "premisename", "premisesname"],
  address: [
    "address",
    "address1",
    "street",
    "streetaddress",
    "premises",
    "premise",
    "premisesaddress",
    "premiseaddress",
  ],
};
const FIELD_OF_HEADER = new Map(
  Object.entries(HEADER_WORDS).flatMap(([field, words]) => words.map((w) => [w, field as Field] as const)),
);

/** A record as the file or paste gives it, the line it starts on, and the problem its quoting had, if any. */
interface RawRow {
  cells: string[];
  line: number;
  problem: ReadProblem | null;
}

/**
 * A list's rows as the box shows them: tab-separated, each cell on one line, each row on the line it had in the
 * file (blank lines where the file had them or a cell's line breaks were), under a header on line 1 unless a row is
 * there: the box numbers its lines as the file did, and the verified rows keep the file's numbers.
 */
export function listText(rows: readonly ListRow[]): string {
  const lines = (rows[0]?.line ?? 1) > 1 ? ["State\tLicense number\tBusiness name\tAddress"] : [];
  for (const r of rows) {
    while (lines.length < r.line - 1) lines.push("");
    lines.push(
      [r.stateGiven, r.license, r.business, r.address].map((cell) => cell.replace(/[\t\r\n]+/g, " ")).join("\t"),
    );
  }
  return lines.join("\n");
}

export function parseListText(text: string, limit: ListLimit): ListInput {
  return toListInput(
    splitText(text),
    limit,
    "The list is empty: paste rows of state and license number, or choose a CSV or XLSX file.",
  );
}

export async function readListFile(file: File, limit: ListLimit): Promise<ListInput> {
  const name = `“${file.name}”`;
  const kind = fileKind(file);
  if (kind === "other") {
    return /\.xls$/i.test(file.name)
      ? { error: `${name} is an older Excel file: open it in Excel and save it as .xlsx or .csv.` }
      : { error: `Choose a CSV or XLSX file (.csv, .xlsx); ${name} is neither.` };
  }
  if (file.size === 0) return { error: `${name} is empty: choose a CSV or XLSX file that holds the list.` };
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch {
    return { error: `${name} could not be read: choose it again.` };
  }
  if (kind === "text") return toListInput(splitText(decodeText(bytes)), limit, `${name} holds no rows.`);
  let cells: string[][];
  try {
    cells = await readFirstSheet(bytes);
  } catch {
    return {
      error: `${name} could not be read as an XLSX file: it may be damaged, password-protected or another kind of file renamed. Open it in Excel and save it again as .xlsx or .csv.`,
    };
  }
  return toListInput(
    cells.map((row, i) => ({ cells: row, line: i + 1, problem: null })),
    limit,
    `${name} holds no rows in its first sheet.`,
  );
}

function fileKind({ name, type }: File): "text" | "xlsx" | "other" {
  const extension = /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase();
  if (extension === "xlsx") return "xlsx";
  if (extension === "csv" || extension === "tsv" || extension === "txt") return "text";
  if (type === "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet") return "xlsx";
  if (type === "text/csv" || type === "text/plain" || type === "text/tab-separated-values") return "text";
  return "other";
}

function decodeText(bytes: Uint8Array): string {
  // Excel's "Unicode Text" is UTF-16 with a byte-order mark; TextDecoder drops the mark.
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    // Excel's "CSV (Comma delimited)" on Windows writes Windows-1252, not UTF-8.
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

async function readFirstSheet(bytes: Uint8Array): Promise<string[][]> {
  const [{ readSheet }, { unzipSync, zipSync }] = await Promise.all([
    import("read-excel-file/universal"),
    import("fflate"),
  ]);
  // read-excel-file inflates a part over 512 KB (a sheet of a few thousand rows) in a blob: Worker, which
  // our Content-Security-Policy refuses, and the read then never settles: hand it the parts uncompressed.
  const parts = unzipSync(bytes, { filter: (part) => /\.(xml|rels)$/.test(part.name) });
  const sheet = await readSheet(zipSync(parts, { level: 0 }).buffer);
  return sheet.map((row) => row.map(cellText));
}

function cellText(cell: unknown): string {
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? "" : cell.toISOString().slice(0, 10);
  if (typeof cell === "string" || typeof cell === "number" || typeof cell === "boolean") return String(cell);
  return "";
}

function splitText(text: string): RawRow[] {
  const body = text.replace(/^\uFEFF/, "");
  if (!body.includes("\t")) return splitRecords(body, ",", '"');
  const rows = splitRecords(body, "\t", '"');
  // A spreadsheet copies a cell such as `"Big" Joe's` as it is: read a paste's quotes literally rather
  // than let one run on over the rows after it.
  return rows.some((r) => r.problem) ? splitRecords(body, "\t", "\0") : rows;
}

function splitRecords(text: string, delimiter: string, quoteChar: string): RawRow[] {
  const rows: RawRow[] = [];
  // Where the record starts, and the line that is: a quoted cell may hold line breaks, so records are not lines.
  let start = 0;
  let line = 1;
  Papa.parse<string[]>(text, {
    delimiter,
    quoteChar,
    step({ data, errors, meta }) {
      const quotes = errors.find((e) => e.type === "Quotes");
      const problem = !quotes ? null : quotes.code === "MissingQuotes" ? "unclosed quote" : "misplaced quotes";
      rows.push({ cells: data, line, problem });
      line += text.slice(start, meta.cursor).match(LINE_BREAK)?.length ?? 0;
      start = meta.cursor;
    },
  });
  return rows;
}

const LINE_BREAK = /\r\n|\r|\n/g;

function toListInput(records: RawRow[], limit: ListLimit, emptyMessage: string): ListInput {
  const lines = records.filter((r) => r.problem || r.cells.some((cell) => cell.trim() !== ""));
  const [first] = lines;
  if (!first) return { error: emptyMessage };
  const columns = headerColumns(first.cells);
  if (columns && !columns.includes("state")) {
    return { error: "The header row has no state column: head it “State”." };
  }
  if (columns && !columns.includes("license") && !columns.includes("business")) {
    return { error: "The header row has no license number or business name column: head one “License number”." };
  }
  const data = columns ? lines.slice(1) : lines;
  if (data.length === 0) return { error: "The list has a header row and no rows under it." };
  if (data.length > limit.rows) {
    const count = data.length.toLocaleString("en-US");
    const most = limit.rows.toLocaleString("en-US");
    return {
      error: `The list has ${count} rows; at most ${most} can be ${limit.use}. Split it into smaller lists.`,
    };
  }
  return { header: columns !== null, rows: data.map((record) => toRow(record, columns)) };
}

/** The field of each column when `cells` is a header row (it names a state or license column), else null. */
function headerColumns(cells: string[]): (Field | null)[] | null {
  const columns: (Field | null)[] = [];
  for (const cell of cells) {
    const field = FIELD_OF_HEADER.get(cell.toLowerCase().replace(/[^a-z0-9#]/g, "")) ?? null;
    // The first column of a field wins; a second is ignored like an unknown one.
    columns.push(field && !columns.includes(field) ? field : null);
  }
  return columns.includes("state") || columns.includes("license") ? columns : null;
}

function toRow({ cells, line, problem }: RawRow, columns: (Field | null)[] | null): ListRow {
  const values = cells.map((cell) => cell.trim());
  const value = (field: Field) => values[(columns ?? POSITIONAL).indexOf(field)] ?? "";
  const [stateGiven, license, business, address] = POSITIONAL.map(value) as [string, string, string, string];
  const read: ReadProblem[] = problem ? [problem] : [];
  if (!columns && values.findLastIndex((cell) => cell !== "") >= POSITIONAL.length) read.push("too many columns");
  const given = { line, state: stateGiven, license, business, address };
  return {
    line,
    stateGiven,
    state: stateCodeOf(stateGiven),
    license,
    business,
    address,
    read,
    problem: givenProblem(given, read),
  };
}
