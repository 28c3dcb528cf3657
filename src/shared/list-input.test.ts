// @vitest-environment node
// jsdom's File has no arrayBuffer(), which reading a chosen file needs; Node's has.
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import {
  listText,
  type ListInput,
  type ListLimit,
  type ListRow,
  parseListText as parseWithLimit,
  readListFile as readWithLimit,
} from "./list-input.ts";

// The list check's limit; the watchlist's is tested on its own below.
const LIMIT: ListLimit = { rows: 5000, use: "verified at once" };
const MAX_ROWS = LIMIT.rows;
const parseListText = (text: string) => parseWithLimit(text, LIMIT);
const readListFile = (file: File) => readWithLimit(file, LIMIT);

function rowsOf(input: ListInput): ListRow[] {
  if ("error" in input) throw new Error(`expected rows, got the error: ${input.error}`);
  return input.rows;
}

const rows = (text: string) => rowsOf(parseListText(text));

/** The fields a clerk sees of each row. */
const seen = (list: ListRow[]) =>
  list.map(({ line, state, license, business, address }) => ({ line, state, license, business, address }));

const problems = (list: ListRow[]) => list.map(({ line, problem }) => [line, problem]);

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

async function xlsxFile(sheets: Record<string, unknown[][]>, name = "list.xlsx"): Promise<File> {
  const workbook = new ExcelJS.Workbook();
  for (const [sheetName, sheetRows] of Object.entries(sheets)) workbook.addWorksheet(sheetName).addRows(sheetRows);
  return new File([await workbook.xlsx.writeBuffer()], name, { type: XLSX_TYPE });
}

describe("a pasted list", () => {
  it("reads state, license number, business name and address separated by commas, numbers as given", () => {
    const list = parseListText(
      "ny, 0012345\nNJ,0101-33-005-003,BLACK CAT TAVERN\nma,  00451-RS-0012 , White Horse, 12 Main St\n",
    );
    expect(list).toMatchObject({ header: false });
    expect(seen(rowsOf(list))).toEqual([
      { line: 1, state: "ny", license: "0012345", business: "", address: "" },
      { line: 2, state: "nj", license: "0101-33-005-003", business: "BLACK CAT TAVERN", address: "" },
      { line: 3, state: "ma", license: "00451-RS-0012", business: "White Horse", address: "12 Main St" },
    ]);
    expect(problems(rowsOf(list))).toEqual([
      [1, null],
      [2, null],
      [3, null],
    ]);
  });

  it("reads columns pasted from a spreadsheet (tabs), where commas belong to the cells", () => {
    expect(seen(rows("NY\t0012345\tSMITH, JONES & CO\t1 Main St, Albany\nCA\t\tBLUE BAR\t"))).toEqual([
      { line: 1, state: "ny", license: "0012345", business: "SMITH, JONES & CO", address: "1 Main St, Albany" },
      { line: 2, state: "ca", license: "", business: "BLUE BAR", address: "" },
    ]);
  });

  it("reads quoted CSV cells holding commas, quotes and line breaks", () => {
    expect(seen(rows('ny,0012345,"JOE\'S ""BIG"" BAR, INC","1 Main St\nAlbany"'))).toEqual([
      { line: 1, state: "ny", license: "0012345", business: 'JOE\'S "BIG" BAR, INC', address: "1 Main St\nAlbany" },
    ]);
  });

  it("takes a spreadsheet cell's quotes literally rather than running it on over the next rows", () => {
    expect(seen(rows('ny\t1\t"Big" Joe\'s\t1 Main St\nny\t2'))).toEqual([
      { line: 1, state: "ny", license: "1", business: '"Big" Joe\'s', address: "1 Main St" },
      { line: 2, state: "ny", license: "2", business: "", address: "" },
    ]);
  });

  it("says so when a CSV quote is never closed", () => {
    const list = rows('ny,1,"Joe\nny,2\nny,3');
    expect(list).toHaveLength(1);
    expect(list[0]?.problem).toMatch(/quote .* never closed/);
  });

  it("recognises a header row, takes its columns in any order and ignores unknown ones", () => {
    const list = parseListText(
      "Account #,Business Name,Lic #,State,Premises\n" +
        "A-17,WHITE HORSE,0012345,New York,1 Main St\nA-18,,0101-33-5-3,NJ,\n",
    );
    expect(list).toMatchObject({ header: true });
    // Numbered as the paste's lines: the header is line 1.
    expect(seen(rowsOf(list))).toEqual([
      { line: 2, state: "ny", license: "0012345", business: "WHITE HORSE", address: "1 Main St" },
      { line: 3, state: "nj", license: "0101-33-5-3", business: "", address: "" },
    ]);
  });

  it.each([
    "State,License,Business,Address",
    "STATE\tLICENSE NUMBER\tNAME\tADDRESS",
    "state,license no.,dba,street",
    "St,License #,Trade Name,Premises Address",
    "state,lic no,doing business as,premises",
  ])("recognises the header %j", (header) => {
    const delimiter = header.includes("\t") ? "\t" : ",";
    const list = parseListText(`${header}\n${["ny", "0012345", "WHITE HORSE", "1 Main St"].join(delimiter)}`);
    expect(list).toMatchObject({ header: true });
    expect(seen(rowsOf(list))).toEqual([
      { line: 2, state: "ny", license: "0012345", business: "WHITE HORSE", address: "1 Main St" },
    ]);
  });

  it("refuses a header row that names no state column, before anything runs", () => {
    expect(parseListText("License number,Business name\n0012345,WHITE HORSE")).toEqual({
      error: "The header row has no state column: head it “State”.",
    });
  });

  it("reads a state as a code or a name, in any case", () => {
    const list = rows(
      ["ny,1", "NY,2", "New York,3", "new york,4", "N.Y.,5", "District of Columbia,6", "D.C.,7", "Washington,8"].join(
        "\n",
      ),
    );
    expect(list.map((r) => r.state)).toEqual(["ny", "ny", "ny", "ny", "ny", "dc", "dc", "wa"]);
    expect(list.map((r) => r.stateGiven)).toEqual([
      "ny",
      "NY",
      "New York",
      "new york",
      "N.Y.",
      "District of Columbia",
      "D.C.",
      "Washington",
    ]);
  });

  it("skips blank lines, numbering each row by its line as the clerk's editor does", () => {
    expect(rows("\nny,1\n\n   \nma,2\r\n\r\nnj,3\n\n").map((r) => [r.line, r.license])).toEqual([
      [2, "1"],
      [5, "2"],
      [7, "3"],
    ]);
  });

  it("numbers a row after a quoted cell's line breaks by the line it starts on", () => {
    const list = rows('ny,1,"JOE\'S\r\nBAR","1 Main St\nAlbany"\n\nny,2\r\nny,3');
    expect(list.map((r) => [r.line, r.license])).toEqual([
      [1, "1"],
      [5, "2"],
      [6, "3"],
    ]);
  });

  it("keeps a row whose state is unknown or missing, and says why", () => {
    expect(problems(rows("Nwe York,0012345\nPR,123\n,0012345"))).toEqual([
      [1, "unknown state “Nwe York”: write a code such as NY or a name such as New York"],
      [2, "unknown state “PR”: write a code such as NY or a name such as New York"],
      [3, "no state"],
    ]);
  });

  it("keeps a row with more than four columns, and says so", () => {
    const list = rows("ny,0012345,WHITE HORSE,1 Main St,Albany\nny,0012346,BLUE BAR,2 Main St,,,");
    expect(problems(list)).toEqual([
      [1, "too many columns: expected state, license number, business name, address"],
      [2, null],
    ]);
    expect(seen(list)[0]).toEqual({
      line: 1,
      state: "ny",
      license: "0012345",
      business: "WHITE HORSE",
      address: "1 Main St",
    });
  });

  it("keeps a line that is not a list row at all in its place, and says so", () => {
    expect(problems(rows("ny,1\n%%%%\nhello\nny,2"))).toEqual([
      [1, null],
      [2, "not a list row: expected a state and a license number, separated by a comma or a tab"],
      [3, "not a list row: expected a state and a license number, separated by a comma or a tab"],
      [4, null],
    ]);
  });

  it("searches a row without a number by its name, and flags one with neither", () => {
    expect(problems(rows("ny,,WHITE HORSE\nny\nny,,,1 Main St"))).toEqual([
      [1, null],
      [2, "no license number and no business name"],
      [3, "no license number and no business name"],
    ]);
  });

  it(`takes up to ${MAX_ROWS} rows and refuses more with the count, before anything runs`, () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `ny,${i}`).join("\n");
    expect(rows(`State,License\n${lines(MAX_ROWS)}`)).toHaveLength(MAX_ROWS);
    expect(parseListText(lines(MAX_ROWS + 1))).toEqual({
      error: "The list has 5,001 rows; at most 5,000 can be verified at once. Split it into smaller lists.",
    });
  });

  it("takes the limit it is given, and names its use in the refusal", () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `ny,${i}`).join("\n");
    const watch = { rows: 10_000, use: "added to the watchlist at once" };
    expect(parseWithLimit(lines(10_000), watch)).toMatchObject({ header: false });
    expect(parseWithLimit(lines(10_001), watch)).toEqual({
      error:
        "The list has 10,001 rows; at most 10,000 can be added to the watchlist at once. Split it into smaller lists.",
    });
  });

  it("says the list is empty when it is", () => {
    const empty = {
      error: "The list is empty: paste rows of state and license number, or choose a CSV or XLSX file.",
    };
    expect(parseListText("")).toEqual(empty);
    expect(parseListText(" \n\t\n")).toEqual(empty);
    expect(parseListText("State,License number\n\n")).toEqual({
      error: "The list has a header row and no rows under it.",
    });
  });
});

describe("a list put back in the box", () => {
  it("reads back as the same rows, a line break in a cell made a space", () => {
    const list = rows('State,License,Business,Address\nNew York,0012345,"WHITE HORSE","1 Main St\nAlbany"\nzz,1');
    const again = rows(listText(list));
    // On the lines they had: the cell's line break left a blank line, so the row after it keeps its number.
    expect(seen(again)).toEqual([
      { line: 2, state: "ny", license: "0012345", business: "WHITE HORSE", address: "1 Main St Albany" },
      { line: 4, state: null, license: "1", business: "", address: "" },
    ]);
    expect(again.map((r) => r.stateGiven)).toEqual(["New York", "zz"]);
  });

  it("keeps a file's blank lines, and its first line as a row where it held one", () => {
    expect(listText(rows("ny,1\n\nny,2"))).toBe("ny\t1\t\t\n\nny\t2\t\t");
    expect(listText(rows("\nny,1"))).toBe("State\tLicense number\tBusiness name\tAddress\nny\t1\t\t");
  });
});

describe("a chosen file", () => {
  it("reads a CSV by the same rules, whatever type the browser gives it", async () => {
    // Windows gives a .csv the type of Excel's old format when Excel is installed.
    const file = new File(["\uFEFFState,License No\r\nny,0012345\r\nzz,1\r\n"], "accounts.CSV", {
      type: "application/vnd.ms-excel",
    });
    const list = await readListFile(file);
    expect(list).toMatchObject({ header: true });
    expect(problems(rowsOf(list))).toEqual([
      [2, null],
      [3, "unknown state “zz”: write a code such as NY or a name such as New York"],
    ]);
  });

  it("reads .txt and .tsv files, a type of text/csv, and Excel's Windows-1252 and UTF-16 text", async () => {
    const read = async (file: File) => seen(rowsOf(await readListFile(file)));
    const expected = [{ line: 1, state: "ny", license: "0012345", business: "CAFÉ ROYAL", address: "" }];
    expect(await read(new File(["ny\t0012345\tCAFÉ ROYAL"], "list.tsv"))).toEqual(expected);
    expect(await read(new File(["ny,0012345,CAFÉ ROYAL"], "list.txt", { type: "text/plain" }))).toEqual(expected);
    expect(await read(new File(["ny,0012345,CAFÉ ROYAL"], "export", { type: "text/csv" }))).toEqual(expected);
    const cp1252 = new Uint8Array([...Buffer.from("ny,0012345,CAF"), 0xc9, ...Buffer.from(" ROYAL")]);
    expect(await read(new File([cp1252], "ansi.csv"))).toEqual(expected);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("ny\t0012345\tCAFÉ ROYAL\r\n", "utf16le")]);
    expect(await read(new File([utf16], "unicode.txt"))).toEqual(expected);
  });

  it("reads the first sheet of an XLSX, numbers and dates as text", async () => {
    const file = await xlsxFile({
      Accounts: [
        ["State", "License number", "Business name", "Opened"],
        ["NY", "0012345", "WHITE HORSE", new Date(Date.UTC(2026, 0, 31))],
        ["New Jersey", 12345, null, null],
        [],
        ["ma", null, "BLUE BAR", 2026],
      ],
      Notes: [["zz", "not read"]],
    });
    const list = await readListFile(file);
    expect(list).toMatchObject({ header: true });
    expect(seen(rowsOf(list))).toEqual([
      { line: 2, state: "ny", license: "0012345", business: "WHITE HORSE", address: "" },
      { line: 3, state: "nj", license: "12345", business: "", address: "" },
      { line: 5, state: "ma", license: "", business: "BLUE BAR", address: "" },
    ]);
  });

  it("gives a date cell as YYYY-MM-DD", async () => {
    const file = await xlsxFile({ List: [["ny", "0012345", new Date(Date.UTC(2026, 10, 22))]] });
    expect(seen(rowsOf(await readListFile(file)))[0]?.business).toBe("2026-11-22");
  });

  // Its sheet is over the 512 KB past which read-excel-file would inflate it in a blob: Worker, which
  // the app's CSP refuses; only a browser shows that (e2e), this shows such a sheet reads whole.
  it(`reads an XLSX of ${MAX_ROWS} rows`, async () => {
    const data = Array.from({ length: MAX_ROWS }, (_, i) => ["NY", String(i).padStart(7, "0"), `BUSINESS ${i} LLC`]);
    const list = rowsOf(await readListFile(await xlsxFile({ List: [["State", "License", "Business"], ...data] })));
    expect(list).toHaveLength(MAX_ROWS);
    expect(list.at(-1)).toMatchObject({ line: MAX_ROWS + 1, license: "0004999", business: "BUSINESS 4999 LLC" });
  }, 20_000);

  it("refuses a file that is neither CSV nor XLSX, saying which formats work", async () => {
    expect(await readListFile(new File(["%PDF-1.7"], "x.pdf", { type: "application/pdf" }))).toEqual({
      error: "Choose a CSV or XLSX file (.csv, .xlsx); “x.pdf” is neither.",
    });
    expect(await readListFile(new File([new Uint8Array([0x89, 0x50])], "scan.png", { type: "image/png" }))).toEqual({
      error: "Choose a CSV or XLSX file (.csv, .xlsx); “scan.png” is neither.",
    });
    expect(await readListFile(new File([new Uint8Array([0xd0, 0xcf])], "old.xls"))).toEqual({
      error: "“old.xls” is an older Excel file: open it in Excel and save it as .xlsx or .csv.",
    });
  });

  it("refuses an empty file, or one with no rows", async () => {
    expect(await readListFile(new File([], "list.csv", { type: "text/csv" }))).toEqual({
      error: "“list.csv” is empty: choose a CSV or XLSX file that holds the list.",
    });
    expect(await readListFile(new File(["\r\n\r\n"], "list.csv"))).toEqual({ error: "“list.csv” holds no rows." });
    expect(await readListFile(await xlsxFile({ Empty: [] }))).toEqual({
      error: "“list.xlsx” holds no rows in its first sheet.",
    });
  });

  it("refuses a file named .xlsx that is not one, without failing", async () => {
    const error = {
      error:
        "“list.xlsx” could not be read as an XLSX file: it may be damaged, password-protected or another kind of file renamed. Open it in Excel and save it again as .xlsx or .csv.",
    };
    expect(await readListFile(new File(["ny,0012345"], "list.xlsx", { type: XLSX_TYPE }))).toEqual(error);
    const half = new Uint8Array(await (await xlsxFile({ List: [["ny", "1"]] })).arrayBuffer()).slice(0, 400);
    expect(await readListFile(new File([half], "list.xlsx"))).toEqual(error);
  });
});
