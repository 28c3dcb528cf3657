import Papa from "papaparse";
import { stateCodeOf } from "../contract/states.ts";

/** How many rows a list may hold, and what they are read for, to say why a longer one is refused. */
export interface ListLimit {
  rows: number;
  /** "verified at once": the list has 5,001 rows; at most 5,000 can be verified at once. */
  use: string;
}

export interface ListRow {
  /** 1-based number of the data row in the list as given (a header row, if any, is not counted; blank lines are skipped and not counted). */
  row: number;
  /** The state as written in the row, trimmed. */
  stateGiven: string;
  /** Its two-letter lower-case code when it names one of the 50 states or DC, else null. */
  state: string | null;
  /** The license number as given, trimmed of surrounding whitespace only (never reformatted). "" when empty. */
  license: string;
  /** The business name and address when the row has them, else "". */
  business: string;
  address: string;
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

const TOO_MANY_COLUMNS = "too many columns: expected state, license number, business name, address";
const NOT_A_ROW = "not a list row: expected a state and a license number, separated by a comma or a tab";
const NO_NUMBER = "no license number and no business name";

/** A record as the file or paste gives it, with the problem its quoting had, if any. */
interface RawRow {
  cells: string[];
  problem: string | null;
}

/** A list's rows as the box shows them: tab-separated under a header, each cell on one line. */
export function listText(rows: readonly ListRow[]): string {
  const lines = rows.map((r) =>
    [r.stateGiven, r.license, r.business, r.address].map((cell) => cell.replace(/[\t\r\n]+/g, " ")).join("\t"),
  );
  return ["State\tLicense number\tBusiness name\tAddress", ...lines].join("\n");
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
    cells.map((row) => ({ cells: row, problem: null })),
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
  Papa.parse<string[]>(text, {
    delimiter,
    quoteChar,
    step({ data, errors }) {
      const quotes = errors.find((e) => e.type === "Quotes");
      const problem = !quotes
        ? null
        : quotes.code === "MissingQuotes"
          ? 'a quote (") is never closed, so every line after it was read into this row'
          : 'its quotes (") are misplaced: a quoted cell must start and end with one';
      rows.push({ cells: data, problem });
    },
  });
  return rows;
}

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
  return { header: columns !== null, rows: data.map((record, i) => toRow(i + 1, record, columns)) };
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

function toRow(row: number, { cells, problem }: RawRow, columns: (Field | null)[] | null): ListRow {
  const values = cells.map((cell) => cell.trim());
  const value = (field: Field) => values[(columns ?? POSITIONAL).indexOf(field)] ?? "";
  const [stateGiven, license, business, address] = POSITIONAL.map(value) as [string, string, string, string];
  const state = stateCodeOf(stateGiven);

  const problems = problem ? [problem] : [];
  if (!columns && values.findLastIndex((cell) => cell !== "") >= POSITIONAL.length) problems.push(TOO_MANY_COLUMNS);
  if (state === null && !license && !business) {
    problems.push(NOT_A_ROW);
  } else {
    if (state === null) {
      problems.push(
        stateGiven ? `unknown state “${stateGiven}”: write a code such as NY or a name such as New York` : "no state",
      );
    }
    if (!license && !business) problems.push(NO_NUMBER);
  }
  return { row, stateGiven, state, license, business, address, problem: problems.join("; ") || null };
}
