import ExcelJS from "exceljs";
import { writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { njAbc } from "./adapter.ts";
import { SourceFileError } from "../source-adapter.ts";
import { sourceFile } from "../readers/source-file.ts";
import { readAll, sharedData, tempFolder } from "../adapter-test-helpers.ts";

const REPORT = sharedData("nj/nj_retail_licensees_april2026.xlsx");
const LIST = sharedData("nj/nj_bar_store_licenses.csv");
const temp = tempFolder();
afterAll(() => temp.done());

describe("nj-abc, the retail license report (.xlsx)", async () => {
  const { records, skips, outcomes } = await readAll(njAbc, [REPORT]);

  it("finds the header under the title rows and reads every license", () => {
    expect(outcomes).toBe(8815);
    expect(skips).toEqual([]);
    expect(records.size).toBe(8815);
  });

  it("takes its as-of date from the generation date above the header", async () => {
    expect(await njAbc.inspect(sourceFile(REPORT))).toEqual({
      layout: "NJ ABC retail license report (.xlsx)",
      asOf: "2026-04-01",
    });
  });

  it("maps a license field by field, county from the number's leading zeros", () => {
    // 0101-33-005-003 | Plenary Retail Consumption License | BLACK CAT TAVERN | ROSE AN CORP | (none) | 2025-07-01 | ABSECON | 1 N SHORE RD
    expect(records.get("0101-33-005-003")!.record).toEqual({
      license: "0101-33-005-003",
      business: "BLACK CAT TAVERN",
      owner: "ROSE AN CORP",
      phone: null,
      state: "nj",
      status: "active",
      address: { line_1: "1 N SHORE RD", line_2: null, city: "ABSECON", county: "Atlantic", state: "NJ", zip: "" },
      dates: { effective: "2025-07-01", expires: null, issued_original: null, issued_latest: null },
      details: { class: null, description: "Plenary Retail Consumption License", type: "33" },
    });
  });

  it("marks a license with an inactivity start date inactive (a pocket license, no premises)", () => {
    // 0714-44-364-008 | Plenary Retail Distribution License | ABC POCKET | AJS LIQUORS LLC | 2016-12-19 | 2025-07-01 | (none) | (none)
    const pocket = records.get("0714-44-364-008")!;
    expect(pocket.at.line).toBe(3000);
    expect(pocket.record).toMatchObject({
      status: "inactive",
      business: "ABC POCKET",
      owner: "AJS LIQUORS LLC",
      address: { line_1: "", line_2: null, city: "", county: "Essex", state: "NJ", zip: "" },
    });
    expect([...records.values()].filter((r) => r.record.status === "inactive").length).toBe(1328);
  });
});

describe("nj-abc, the older retail list (CSV)", async () => {
  const { records, skips, outcomes } = await readAll(njAbc, [LIST]);

  it("reads every license across its multi-line address fields", () => {
    expect(outcomes).toBe(8875);
    expect(skips).toEqual([]);
    expect(records.get("0101-33-005-003")!.at).toEqual({ file: "nj_bar_store_licenses.csv", line: 30 });
  });

  it("splits the premise address into street lines, city and ZIP", () => {
    // 8,0102-32-014-007,...,"160 & 170 SOUTH NEW JERSEY AVENUE \r\nAND A PORTION OF 801 BOARDWALK\r\nATLANTIC CITY, NJ  08401\r\nUSA",
    // ...,Active,NONE,BEACHVIEW AC HOSPITALITY LLC,"Jul 01, 2019",NA,"Jun 30, 2020",ATLANTIC CITY,...
    expect(records.get("0102-32-014-007")!.record).toEqual({
      license: "0102-32-014-007",
      business: "BEACHVIEW AC HOSPITALITY LLC",
      owner: "BEACHVIEW AC HOSPITALITY LLC",
      phone: null,
      state: "nj",
      status: "active",
      address: {
        line_1: "160 & 170 SOUTH NEW JERSEY AVENUE",
        line_2: "AND A PORTION OF 801 BOARDWALK",
        city: "ATLANTIC CITY",
        county: "Atlantic",
        state: "NJ",
        zip: "08401",
      },
      dates: { effective: "2019-07-01", expires: "2020-06-30", issued_original: null, issued_latest: null },
      details: { class: null, description: "Plenary Retail Consumption License with Broad C", type: "32" },
    });
  });

  it("reads a city line without its comma, and treats an inactive license's POCKET address as none", () => {
    expect(records.get("0102-33-128-005")!.record).toMatchObject({
      status: "inactive",
      address: { line_1: "3207-3215 BOARDWALK", line_2: null, city: "ATLANTIC CITY", zip: "08401" },
    });
    expect(records.get("0102-44-212-003")!.record).toMatchObject({
      status: "inactive",
      address: { line_1: "", line_2: null, city: "", zip: "" },
    });
  });
});

describe("nj-abc, hand-made workbooks", () => {
  async function workbook(path: string, rows: unknown[][]) {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet("RETAIL LICENSES");
    for (const row of rows) sheet.addRow(row);
    await book.xlsx.writeFile(path);
    return path;
  }
  const header = [
    "License Number",
    "License Type",
    "Establishment",
    "Licensee",
    "Inactivity Start Date",
    "Effective Date",
    "City",
    "Premise Address",
  ];
  const july = new Date(Date.UTC(2025, 6, 1));

  it("skips each kind of bad row with its sheet row number", async () => {
    const file = await workbook(temp.path("report.xlsx"), [
      ["Retail License Listing"],
      ["03/15/2026 08:00 AM"],
      [],
      header,
      [
        "2101-33-001-001",
        "Plenary Retail Consumption License",
        "Not Available",
        "A LLC",
        null,
        july,
        "BELVIDERE",
        "1 MAIN ST",
      ],
      [null, "Club License", "X", "Y", null, july, "BELVIDERE", "2 MAIN ST"],
      ["2101-31-002-001", "Club License", "X", "Y", null, "someday", "BELVIDERE", "3 MAIN ST"],
      [],
      ["2101-44-003-001", "Plenary Retail Distribution License", "NONE", "B LLC", 45000, july],
    ]);
    expect(await njAbc.inspect(sourceFile(file))).toEqual({
      layout: "NJ ABC retail license report (.xlsx)",
      asOf: "2026-03-15",
    });
    const { records, skips } = await readAll(njAbc, [file]);
    expect(
      [...records.values()].map((r) => [
        r.at.line,
        r.record.license,
        r.record.business,
        r.record.status,
        r.record.address.county,
      ]),
    ).toEqual([
      [5, "2101-33-001-001", "A LLC", "active", "Warren"],
      [9, "2101-44-003-001", "B LLC", "inactive", "Warren"],
    ]);
    expect(skips.map((s) => [s.at.line, s.skip])).toEqual([
      [6, "no license number"],
      [7, "unreadable effective date"],
    ]);
  });

  it("refuses a workbook whose first rows hold no known header", async () => {
    const file = await workbook(temp.path("other.xlsx"), [
      ["Name", "Address"],
      ["X", "Y"],
    ]);
    const error = await njAbc.inspect(sourceFile(file)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceFileError);
    expect((error as Error).message).toMatch(/other\.xlsx: unknown layout/);
    expect((error as Error).message).toContain("NJ ABC retail license report (.xlsx): needs columns License Number");
    expect((error as Error).message).toContain("NJ ABC retail license list (CSV): needs columns ID");
  });

  it("refuses a file that is not a workbook or CSV", async () => {
    const file = temp.path("broken.xlsx");
    writeFileSync(file, Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]));
    await expect(njAbc.inspect(sourceFile(file))).rejects.toThrow(/broken\.xlsx: cannot be read/);
  });
});
