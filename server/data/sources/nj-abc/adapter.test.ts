import ExcelJS from "exceljs";
import { writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { njAbc } from "./adapter.ts";
import { SourceFileError } from "../source-adapter.ts";
import { sourceFile } from "../../readers/source-file.ts";
import { readSourceFile } from "../../import/read-source-file.ts";
import { datesOf, readAll, sharedData, tempFolder } from "../../../testing/adapter-test-helpers.ts";

const REPORT = sharedData("nj/nj_retail_licensees_april2026.xlsx");
const LIST = sharedData("nj/nj_bar_store_licenses.csv");
const temp = tempFolder();
afterAll(() => temp.done());

/** The sheet row or CSV line a license was read from. */
function lineOf(files: Awaited<ReturnType<typeof readAll>>["files"], license: string) {
  return files.flatMap((f) => f.observations).find((o) => o.license === license)?.line;
}

/** Every text field of a record, to look for line breaks in them. */
function texts(record: { business: string; owner: string; address: object }) {
  return [record.business, record.owner, ...Object.values(record.address)].filter((v) => typeof v === "string");
}

describe("nj-abc, the retail license report (.xlsx)", async () => {
  const { records, skips, outcomes, files } = await readAll(njAbc, [REPORT]);
  const report = files[0]!;

  it("finds the header under the title rows and reads every license", () => {
    expect(outcomes).toBe(8815);
    expect(skips).toEqual([]);
    expect(records.size).toBe(8815);
  });

  it("takes its as-of date from the generation date above the header, for each record", async () => {
    expect(await njAbc.inspect(sourceFile(REPORT))).toMatchObject({
      layout: "NJ ABC retail license report (.xlsx)",
      title: "NJ ABC Retail License Report",
      asOf: "2026-04-01",
    });
    expect([report.asOf, report.asOfFrom]).toEqual(["2026-04-01", "stated in the file"]);
    expect(records.get("0101-33-005-003")).toMatchObject({ asOf: "2026-04-01", path: REPORT });
  });

  it("reads on from the pass that found the header when its inspection kept the workbook open", async () => {
    const file = sourceFile(REPORT);
    const kept = await njAbc.inspect(file, { keepOpen: true });
    expect(kept.close).toBeDefined();
    const read = await readSourceFile(njAbc, file, kept, { today: "2026-11-22" });
    expect(read.observations).toEqual(report.observations);
    expect(read.rowsRead).toBe(8815);
    await kept.close!(); // after reading: nothing left to let go

    const unread = await njAbc.inspect(sourceFile(REPORT), { keepOpen: true });
    await unread.close!();
    // A CSV's head costs nothing to read again: it is not kept open.
    expect((await njAbc.inspect(sourceFile(LIST), { keepOpen: true })).close).toBeUndefined();
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
      dates: { nj: { effective: "2025-07-01", expires: null, issued_original: null, issued_latest: null } },
      details: { class: null, description: "Plenary Retail Consumption License", type: "33" },
    });
  });

  it("marks a license with an inactivity start date inactive, effective from that date (a pocket license, no premises)", () => {
    // 0714-44-364-008 | Plenary Retail Distribution License | ABC POCKET | AJS LIQUORS LLC | 2016-12-19 | 2025-07-01 | (none) | (none)
    expect(lineOf(files, "0714-44-364-008")).toBe(3000);
    expect(records.get("0714-44-364-008")!.record).toMatchObject({
      status: "inactive",
      business: "ABC POCKET",
      owner: "AJS LIQUORS LLC",
      address: { line_1: "", line_2: null, city: "", county: "Essex", state: "NJ", zip: "" },
      dates: { nj: { effective: "2016-12-19" } },
    });
    // Its Effective Date, 2205-07-24, is a slip for a date in 2025: the inactivity date is served.
    expect(datesOf(records.get("2014-33-018-009")!.record).effective).toBe("2023-05-13");
    expect([...records.values()].filter((r) => r.record.status === "inactive").length).toBe(1328);
  });

  it("splits an address holding a line break and the city into street, city and ZIP", () => {
    // 0102-33-103-011 | ... | BUNGALOW LOUNGE\n | ... | (no City) | 2637 2639 2639A 2641 2642 BOARDWALK AND 2701 BOARDWALK \nATLANTIC CITY, NEW JERSEY 08401
    expect(records.get("0102-33-103-011")!.record).toMatchObject({
      business: "BUNGALOW LOUNGE",
      address: {
        line_1: "2637 2639 2639A 2641 2642 BOARDWALK AND 2701 BOARDWALK",
        line_2: null,
        city: "ATLANTIC CITY",
        zip: "08401",
      },
    });
    const address = (license: string) => records.get(license)!.record.address;
    // `CITY NJ ZIP` without the comma; the country where the state belongs, the City column kept
    expect(address("0102-33-128-005")).toMatchObject({ line_1: "3207-3215 BOARDWALK", city: "ATLANTIC CITY" });
    expect(address("0105-33-013-002")).toMatchObject({ line_1: "TUCKAHOE RD", city: "VINELAND", zip: "08340" });
    expect(address("0906-33-246-003")).toMatchObject({ city: "JERSEY CITY", zip: "07311-3988" });
    // a street line between street and city; the City column (PARAMUS) over the address's
    expect(address("0246-33-030-005")).toMatchObject({
      line_1: "ROUTE 17 SOUTH",
      line_2: "GARDEN STATE PLAZA",
      city: "PARAMUS",
      zip: "07652",
    });
    expect(address("1107-33-013-006")).toMatchObject({ city: "LAWRENCEVILLE", zip: "08648" });
    const broken = [...records.values()].filter((r) => texts(r.record).some((t) => /[\r\n]/.test(t)));
    expect(broken.map((r) => r.record.license)).toEqual([]);
    // 57 addresses with a line break and no City; 2 of them are one line with a break after it
    expect(report.repairs.list().find((r) => r.reason.startsWith("city taken"))?.count).toBe(55);
  });

  it("takes the ZIP from a one-line address with the city in it, and reads POCKET USA as no premises", () => {
    // 0215-33-007-013 | ... | (no City) | 385-395 NORDHOFF DRIVE BUILDING F  UNIT #1 A/K/A 88 BROWNSTONE WAY ENGLEWOOD NJ 07631
    expect(records.get("0215-33-007-013")!.record.address).toMatchObject({
      line_1: "385-395 NORDHOFF DRIVE BUILDING F  UNIT #1 A/K/A 88 BROWNSTONE WAY ENGLEWOOD",
      city: "",
      zip: "07631",
    });
    // 1809-33-010-006 | ... | VESUVIO REALTY LLC | 2007-11-01 | ... | (no City) | POCKET USA
    expect(records.get("1809-33-010-006")!.record.address).toMatchObject({ line_1: "", city: "", zip: "" });
  });

  it("moves a street detail out of the City column", () => {
    // 1204-33-026-011 | ... | THE TWISTED CRAB SEAFOOD AND BAR | ... | ROOM 533C | 755 NJ 18
    expect(records.get("1204-33-026-011")!.record.address).toMatchObject({
      line_1: "755 NJ 18",
      line_2: "ROOM 533C",
      city: "",
    });
    const moved = report.repairs.list().find((r) => r.reason.startsWith("a street detail"))!;
    expect([moved.count, moved.examples.map((at) => at.line)]).toEqual([2, [3364, 4830]]);
  });

  it('joins a name written over several lines: one trade name per line, "; " between them', () => {
    // ISABELLAS ITALIAN PIZZA KITCHEN \nTENNESEEE AVENUE BEER HALL\nBAR 32
    expect(records.get("0102-33-215-011")!.record.business).toBe(
      "ISABELLAS ITALIAN PIZZA KITCHEN; TENNESEEE AVENUE BEER HALL; BAR 32",
    );
    expect(records.get("1904-33-011-004")!.record.business).toBe("SALT");
  });
});

describe("nj-abc, the older retail list (CSV)", async () => {
  const { records, skips, outcomes, files } = await readAll(njAbc, [LIST]);

  it("reads every license across its multi-line address fields", () => {
    expect(outcomes).toBe(8875);
    expect(skips).toEqual([]);
    expect(lineOf(files, "0101-33-005-003")).toBe(30);
    // The list states no date: it is as of its newest effective date (a license granted on 2020-10-08).
    expect([files[0]!.asOf, files[0]!.asOfFrom]).toEqual(["2020-10-08", "the newest date in the file"]);
    expect(records.get("0101-33-005-003")).toMatchObject({ asOf: "2020-10-08", path: LIST });
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
      dates: { nj: { effective: "2019-07-01", expires: "2020-06-30", issued_original: null, issued_latest: null } },
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

  it("reads city lines with NEW JERSEY or USA for the state, and street lines after the city line", () => {
    const address = (license: string) => records.get(license)!.record.address;
    // ONE BERGEN TOWN CENTER\r\nMAYWOOD, NEW JERSEY  07607
    expect(address("0234-33-004-008")).toMatchObject({ line_2: null, city: "MAYWOOD", zip: "07607" });
    // TUCKAHOE RD  \r\n   VINELAND USA 08340
    expect(address("0105-33-013-002")).toMatchObject({ line_2: null, city: "VINELAND", zip: "08340" });
    // 47 GLENWOOD AVENUE\r\nFLOORS 3-6\r\nJERSEY CITY, NJ 07306\r\nUSA\r\nMAC MAHON STUDENT CENTER\r\nST PETERS UNIVERSITY CAMPUS
    expect(address("0906-33-136-010")).toMatchObject({
      line_1: "47 GLENWOOD AVENUE",
      line_2: "FLOORS 3-6, MAC MAHON STUDENT CENTER, ST PETERS UNIVERSITY CAMPUS",
      city: "JERSEY CITY",
      zip: "07306",
    });
    // 3501 ROUTE 42  \r\nSTORE 420A CROSS KEYS COMMONS, NJ  08012\r\nUSA (City.y the same): no city given
    expect(address("0818-44-027-002")).toMatchObject({
      line_2: "STORE 420A CROSS KEYS COMMONS",
      city: "",
      zip: "08012",
    });
    // Only premises written without an NJ ZIP are left without one ("MIDDLETOWN USA"; "NEW YORK, NY  10281").
    const noZip = [...records.values()].filter((r) => r.record.address.line_1 !== "" && r.record.address.zip === "");
    expect(noZip.map((r) => r.record.license).sort()).toEqual([
      "0510-33-003-008",
      "0714-33-147-006",
      "0906-44-350-005",
      "1331-31-044-001",
      "2020-33-001-009",
    ]);
  });

  it("joins a name's continued line with a space", () => {
    expect(records.get("0912-33-022-010")!.record.business).toBe("TAQUERIA LA MEXICANITA RESTAURANT AND BAR");
    expect(records.get("2004-33-089-011")!.record.business).toBe("RANCHO MATEO ASADERO COLOMBIA & CARNE A LA LLANERA");
    expect(records.get("0207-44-008-006")!.record.business).toBe(
      "GARYS WINE & MARKETPLACE; GARYS WINE; GARYS WINE SPIRITS & BEER",
    );
  });

  it("dates an inactive license from its inactivity start date", () => {
    // 0102-33-128-005,...,Active,...,"Jul 01, 2019","Jun 25, 2018","Jun 30, 2020",...
    expect(datesOf(records.get("0102-33-128-005")!.record)).toMatchObject({
      effective: "2018-06-25",
      expires: "2020-06-30",
    });
  });
});

describe("nj-abc, the report and the list together", async () => {
  // One family: the 2026 report replaces the 2019-20 list, even when the list is imported after it.
  const { records } = await readAll(njAbc, [REPORT, LIST]);

  it("serves the report's licenses only, from the report", () => {
    expect(records.size).toBe(8815);
    expect(records.get("0101-33-005-003")).toMatchObject({ path: REPORT, asOf: "2026-04-01" });
    expect(datesOf(records.get("0101-33-005-003")!.record)).toMatchObject({ effective: "2025-07-01", expires: null });
    // WHITE HORSE WINE & SPIRITS was 0101-44-001-008 in the list; the report has it as -010.
    expect(records.has("0101-44-001-008")).toBe(false);
    expect(records.get("0101-44-001-010")!.record.business).toBe("WHITE HORSE WINE & SPIRITS");
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
    expect(await njAbc.inspect(sourceFile(file))).toMatchObject({
      layout: "NJ ABC retail license report (.xlsx)",
      asOf: "2026-03-15",
    });
    const { records, skips, files } = await readAll(njAbc, [file]);
    expect(
      [...records.values()].map((r) => [
        lineOf(files, r.record.license),
        r.record.license,
        r.record.business,
        r.record.status,
        r.record.address.county,
        datesOf(r.record).effective,
      ]),
    ).toEqual([
      [5, "2101-33-001-001", "A LLC", "active", "Warren", "2025-07-01"],
      // Excel day 45000 is 2023-03-15: the day it went inactive
      [9, "2101-44-003-001", "B LLC", "inactive", "Warren", "2023-03-15"],
    ]);
    expect(skips.map((s) => [s.at.line, s.skip])).toEqual([
      [6, "no license number"],
      [7, "unreadable effective date"],
    ]);
  });

  it("splits city lines in any hand, keeps a City column over the address's, and joins name lines", async () => {
    const row = (license: string, establishment: string, city: string | null, premises: string) => [
      license,
      "Plenary Retail Consumption License",
      establishment,
      "A LLC",
      null,
      july,
      city,
      premises,
    ];
    const file = await workbook(temp.path("lines.xlsx"), [
      ["04/01/2026 09:12 AM"],
      header,
      row("2101-33-001-001", "THE INN\n", null, "12 MAIN ST \nBELVIDERE NJ 07823"),
      row("2101-33-002-001", "OLD MILL\nMILL TAVERN", "WHITE TWP", "5 RT 46\nBELVIDERE, NEW JERSEY 07823-1234 "),
      row("2101-33-003-001", "BAR &\nGRILL", "", "1 A ST\nSUITE 2\nHOPE, NJ USA 07844"),
      row("2101-33-004-001", "SEAFOOD\nAND BAR", null, "9 B ST\nHOPE USA"),
      row("2101-33-005-001", "X", "UNIT 4", "7 C ST, HOPE, NJ 07844"),
    ]);
    const { records, files } = await readAll(njAbc, [file]);
    const view = (license: string) => {
      const { business, address } = records.get(license)!.record;
      return [business, address.line_1, address.line_2, address.city, address.zip];
    };
    expect(view("2101-33-001-001")).toEqual(["THE INN", "12 MAIN ST", null, "BELVIDERE", "07823"]);
    expect(view("2101-33-002-001")).toEqual(["OLD MILL; MILL TAVERN", "5 RT 46", null, "WHITE TWP", "07823-1234"]);
    expect(view("2101-33-003-001")).toEqual(["BAR & GRILL", "1 A ST", "SUITE 2", "HOPE", "07844"]);
    expect(view("2101-33-004-001")).toEqual(["SEAFOOD AND BAR", "9 B ST", null, "HOPE", ""]);
    expect(view("2101-33-005-001")).toEqual(["X", "7 C ST, HOPE", "UNIT 4", "", "07844"]);
    expect(files[0]!.repairs.list().map((r) => [r.reason, r.examples.map((at) => at.line)])).toEqual([
      ["city taken from the premise address: the City column is empty", [3, 5, 6]],
      ["a street detail in the City column (it has digits) moved to address line 2", [7]],
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
