import Database from "better-sqlite3";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { WA_ADDRESS_REPAIRS } from "./address.ts";
import { WA_REPAIRS, WA_SKIPS, waWslcb } from "./adapter.ts";
import { readAll, sharedData, tempFolder } from "../../../testing/adapter-test-helpers.ts";
import { findSources } from "../../import/find-sources.ts";
import { sourceFile } from "../../readers/source-file.ts";
import { UnknownLayoutError } from "../source-adapter.ts";

const NOTICES = sharedData("wa/wslcb_data.db");
const temp = tempFolder();
afterAll(() => temp.done());

/** The file's own rows, asked of it directly: what the import should make of them is checked against these. */
function query<T>(sql: string, path = NOTICES): T[] {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

describe("wa-wslcb, a month of the WSLCB's licensing-activity notices", async () => {
  const read = await readAll(waWslcb, [NOTICES]);
  const { records, skips, histories } = read;
  const file = read.files[0]!;
  const repairs = () => file.repairs.list().map((r) => [r.reason, r.count, r.examples.map((e) => e.line)]);
  const served = [...records.values()].map((r) => r.record);

  it("reads every notice, skips the cannabis ones, and serves each license as its newest notice leaves it", () => {
    expect(file.rowsRead).toBe(605);
    expect(file.observations).toHaveLength(530);
    expect(records.size).toBe(512);
    expect(file.skips.list().map((s) => [s.reason, s.count, s.examples.map((e) => e.line)])).toEqual([
      [WA_SKIPS.notLiquor, 75, [4, 14, 15, 22, 31]],
    ]);
    expect(read.refused).toEqual([]);
  });

  it("is as of its newest notice, and says it holds a month of activity, not the licenses in force", () => {
    expect([file.asOf, file.asOfFrom]).toEqual(["2024-05-24", "stated in the file"]);
    expect(file.coverage).toBe(
      "licensing-activity notices 2024-04-26 to 2024-05-24 only: applications pending then, approvals and licenses discontinued; not a list of licenses in force",
    );
  });

  it("serves each notice as what it is: applied for, approved or discontinued, never in force", () => {
    const counts = new Map<string, number>();
    for (const r of served) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
    expect(Object.fromEntries([...counts].sort())).toEqual({
      "added fees approved": 1,
      "added/change of class/in lieu applied for": 19,
      "added/change of class/in lieu approved": 24,
      "added/change of tradename approved": 6,
      "assumption applied for": 46,
      "assumption approved": 46,
      "change of corporate officer approved": 24,
      "change of location applied for": 3,
      "change of location approved": 8,
      discontinued: 55,
      "in lieu approved": 15,
      "new license applied for": 158,
      "new license approved": 107,
    });
  });

  it("serves an assumption's application under the business taking the license over", () => {
    // row 1: 5/24/2024 | XALOS TACOS MARISCOS BAR | EL TIKIS LLC | 816 CENTRAL AVE S,\u00a0\u00a0QUINCY,\u00a0WA\u00a098848-1356 |
    //   XALOS LLC | EL TIKIS LLC; BUCIO PEREZ, VICTOR; BUCIO OROZCO, MARIA  MIRTHA | SPIRITS/BR/WN REST LOUNGE + |
    //   ASSUMPTION | 084222 | 5093985586
    expect(records.get("084222")).toEqual({
      path: NOTICES,
      asOf: "2024-05-24",
      record: {
        license: "084222",
        business: "EL TIKIS LLC",
        owner: "EL TIKIS LLC",
        phone: "5093985586",
        state: "wa",
        status: "assumption applied for",
        address: {
          line_1: "816 CENTRAL AVE S",
          line_2: null,
          city: "QUINCY",
          county: "",
          state: "WA",
          zip: "98848-1356",
        },
        dates: { wa: { effective: "2024-05-24", expires: null, issued_original: null, issued_latest: null } },
        details: {
          class: null,
          description: "assumption from XALOS TACOS MARISCOS BAR (XALOS LLC)",
          type: "SPIRITS/BR/WN REST LOUNGE +",
        },
      },
    });
  });

  it("serves a new application under its trade name, the applicant as owner, its privileges as its type", () => {
    // row 2: 5/24/2024 | 920 W 1ST AVE,\u00a0\u00a0SPOKANE,\u00a0WA\u00a099201-4002 | DIRECT SHIPMENT RECEIVER-IN WA ONLY; NIGHTCLUB |
    //   NEW APPLICATION | 087740 | 5099984601 | CDPCB | CDPCB LLC; ANDRESON, AARON; ANDRESON, AMBER; BOBROVNIKOV, ROMAN
    expect(records.get("087740")).toEqual({
      path: NOTICES,
      asOf: "2024-05-24",
      record: {
        license: "087740",
        business: "CDPCB",
        owner: "CDPCB LLC",
        phone: "5099984601",
        state: "wa",
        status: "new license applied for",
        address: { line_1: "920 W 1ST AVE", line_2: null, city: "SPOKANE", county: "", state: "WA", zip: "99201-4002" },
        dates: { wa: { effective: "2024-05-24", expires: null, issued_original: null, issued_latest: null } },
        details: { class: null, description: null, type: "DIRECT SHIPMENT RECEIVER-IN WA ONLY; NIGHTCLUB" },
      },
    });
  });

  it("folds a license's notices by date: the approval of an assumption keeps the owner its application named", () => {
    // row 243: 4/30/2024 | CAPITAL CITY SHELL | CAPITAL CITY SHELL | 2125 CATON WAY SW,\u00a0\u00a0OLYMPIA,\u00a0WA\u00a098502-0000 |
    //   AMERICAN FUEL LLC | OLY PETROLEUM LLC; ATHWAL, JASPINDER; ... | GROCERY STORE - BEER/WINE | ASSUMPTION | 081621 | 2069196882
    // row 379: 5/15/2024 | 2125 CATON WAY SW,  OLYMPIA, WA 98502-0000 | 450, GROCERY STORE - BEER/WINE | ASSUMPTION |
    //   081621 | 2069196882 | CAPITAL CITY SHELL
    expect(records.get("081621")).toEqual({
      path: NOTICES,
      asOf: "2024-05-15",
      record: {
        license: "081621",
        business: "CAPITAL CITY SHELL",
        owner: "OLY PETROLEUM LLC",
        phone: "2069196882",
        state: "wa",
        status: "assumption approved",
        address: { line_1: "2125 CATON WAY SW", line_2: null, city: "OLYMPIA", county: "", state: "WA", zip: "98502" },
        dates: { wa: { effective: "2024-05-15", expires: null, issued_original: null, issued_latest: null } },
        details: { class: null, description: null, type: "GROCERY STORE - BEER/WINE" },
      },
    });
    expect(histories.get("081621")!.entries).toEqual([
      {
        event: "changed",
        date: "2024-05-15",
        since: null,
        source: 1,
        changes: [
          { field: "status", license_type: null, from: "assumption applied for", to: "assumption approved" },
          { field: "effective", license_type: null, from: "2024-04-30", to: "2024-05-15" },
        ],
      },
      {
        event: "first_seen",
        date: "2024-04-30",
        since: null,
        source: 1,
        changes: [{ field: "status", license_type: null, from: null, to: "assumption applied for" }],
      },
    ]);
  });

  it("lets a later discontinuance end an application's license", () => {
    // row 202: 5/6/2024 | 520 S 5TH ST BLDG A,\u00a0\u00a0SUNNYSIDE,\u00a0WA\u00a098944-2101 | SPIRITS/BR/WN REST SERVICE BAR |
    //   NEW APPLICATION | 433198 | 5093059567 | DESPECHO LLC | DESPECHO LLC; GOMEZ, MARIBEL; GOMEZ, LAURA
    // row 264: 5/24/2024 | 520 S 5TH ST BLDG A,  SUNNYSIDE, WA 98944-2101 | 424, SPIRITS/BR/WN REST LOUNGE + |
    //   DISCONTINUED | 433198 | 5093059567 | DESPECHO
    expect(records.get("433198")!.record).toMatchObject({
      business: "DESPECHO",
      owner: "DESPECHO LLC",
      status: "discontinued",
      dates: { wa: { effective: "2024-05-24", expires: null, issued_original: null, issued_latest: null } },
      details: { class: null, description: null, type: "SPIRITS/BR/WN REST LOUNGE +" },
    });
  });

  it("takes an application with no type for a change of location, its location broken over two lines", () => {
    // row 183: 5/7/2024 | 173 MIDDLE WAITSBURG RD BLDG C,\u00a0STE 120-A\n      \u00a0WALLA WALLA,\u00a0WA\u00a099362-8661 |
    //   DOMESTIC WINERY < 250,000 LITERS | (no application type) | 431273 | 5095935139 | SAVVY VINEYARD |
    //   SAVVY VINEYARD, LLC; SPARKS, BRADLEY; SPARKS, CANDY
    expect(records.get("431273")).toEqual({
      path: NOTICES,
      asOf: "2024-05-07",
      record: {
        license: "431273",
        business: "SAVVY VINEYARD",
        owner: "SAVVY VINEYARD, LLC",
        phone: "5095935139",
        state: "wa",
        status: "change of location applied for",
        address: {
          line_1: "173 MIDDLE WAITSBURG RD BLDG C",
          line_2: "STE 120-A",
          city: "WALLA WALLA",
          county: "",
          state: "WA",
          zip: "99362-8661",
        },
        dates: { wa: { effective: "2024-05-07", expires: null, issued_original: null, issued_latest: null } },
        details: { class: null, description: null, type: "DOMESTIC WINERY < 250,000 LITERS" },
      },
    });
    // 14 rows lack a type, each with a line break in its location; 11 of them are cannabis notices.
    const untyped = query<{ id: number }>(
      "SELECT id FROM licenses WHERE application_type IS NULL AND business_location LIKE '%' || char(10) || '%'",
    );
    expect(untyped).toHaveLength(14);
    expect(repairs()).toContainEqual([WA_REPAIRS.noKind, 3, [183, 232, 249]]);
  });

  it("tells an approval's unit from its city, where plain spaces separate them", () => {
    const at = (license: string) => records.get(license)!.record.address;
    // row 279: 1101 OUTLET COLLECTION WAY SW, SUITE 1321 AUBURN, WA 98001-6507
    expect(at("436785")).toMatchObject({
      line_1: "1101 OUTLET COLLECTION WAY SW",
      line_2: "SUITE 1321",
      city: "AUBURN",
    });
    // row 286: 12928 E MANSFIELD AVE STE 1, BLDG 1 SPOKANE VALLEY, WA 99216-5184
    expect(at("436860")).toMatchObject({ line_2: "BLDG 1", city: "SPOKANE VALLEY" });
    // row 384: 21655 RENTON MAPLE VALLEY RD, SE MAPLE VALLEY, WA 98038-8009: the street's direction, not a unit
    expect(at("422275")).toMatchObject({
      line_1: "21655 RENTON MAPLE VALLEY RD SE",
      line_2: null,
      city: "MAPLE VALLEY",
    });
    // row 397: 6235 AIRPORT WAY S #100, #100 SEATTLE, WA 98108-2749
    expect(at("435547")).toMatchObject({ line_1: "6235 AIRPORT WAY S #100", line_2: null, city: "SEATTLE" });
    expect(repairs()).toContainEqual([WA_ADDRESS_REPAIRS.unitTwice, 1, [397]]);
  });

  it("writes a ZIP+4 of -0000 as its five digits, and finds no ZIP outside Washington", () => {
    // row 243: ...OLYMPIA,\u00a0WA\u00a098502-0000
    expect(records.get("081621")!.record.address.zip).toBe("98502");
    expect(repairs()).toContainEqual([WA_ADDRESS_REPAIRS.zipPlusZeros, 73, [6, 9, 12, 19, 30]]);
    expect(served.filter((r) => !/^9[89]\d{3}(-\d{4})?$/.test(r.address.zip))).toEqual([]);
    expect(served.filter((r) => r.address.city === "" || r.address.state !== "WA")).toEqual([]);
  });

  it("leaves a placeholder or short phone empty, and keeps a license whose phone is blank", () => {
    // row 8: ... | GROCERY STORE - BEER/WINE | NEW APPLICATION | 434798 | 0000000000
    // row 433: ... | 379, TAKE OUT/DELIVERY ENDORSEMENT | ... | 605102848
    expect(repairs()).toContainEqual([WA_REPAIRS.placeholderPhone, 1, [8]]);
    expect(repairs()).toContainEqual([WA_REPAIRS.shortPhone, 1, [433]]);
    // rows 241 and 275 give no phone at all.
    expect([records.get("436964")!.record.phone, records.get("077157")!.record.phone]).toEqual([null, null]);
  });

  it("keeps every license number as written, six digits with the leading zero a spreadsheet would drop", () => {
    expect(served.filter((r) => !/^\d{6}$/.test(r.license))).toEqual([]);
    expect(served.filter((r) => r.license.startsWith("0")).length).toBeGreaterThan(90);
  });

  it("names no owner where an assumption names no new applicant, and finds no name with stray spaces", () => {
    expect(query("SELECT id FROM licenses WHERE new_applicants = ''")).toHaveLength(6);
    expect(
      query(
        "SELECT id FROM licenses WHERE business_name != trim(business_name) OR new_business_name != trim(new_business_name)",
      ),
    ).toEqual([]);
    expect(served.filter((r) => r.business !== r.business.trim() || r.business === "")).toEqual([]);
  });

  it("finds no repeated notice (the scraper's table keeps one per number, day and privileges) and no number both cannabis and liquor", () => {
    expect(skips.filter((s) => s.skip === WA_SKIPS.repeated)).toEqual([]);
    const cannabis = skips.map((s) => s.at.line).join(",");
    const numbers = query<{ license_number: string }>(
      `SELECT DISTINCT license_number FROM licenses WHERE id IN (${cannabis})`,
    ).map((r) => r.license_number);
    expect(numbers.filter((n) => records.has(n))).toEqual([]);
  });

  it("is found by its content among the shared data, and claimed by no other source", async () => {
    const folder = temp.path("wa");
    mkdirSync(folder);
    copyFileSync(NOTICES, `${folder}/activity.sqlite`);
    const found = await findSources(folder);
    expect(found.bySource.map((s) => [s.adapter.name, s.paths.length])).toEqual([["wa-wslcb", 1]]);
    expect([found.unusable, found.unknown]).toEqual([[], []]);
  });
});

describe("wa-wslcb, hand-made files", () => {
  const COLUMNS =
    "id INTEGER PRIMARY KEY, notification_date TEXT, current_business_name TEXT, new_business_name TEXT, business_location TEXT, " +
    "current_applicants TEXT, new_applicants TEXT, license_type TEXT, application_type TEXT, license_number TEXT, " +
    "contact_phone TEXT, business_name TEXT, applicants TEXT";
  const notice = (id: number, date: string, license: string, kind: string | null, location: string) => [
    id,
    date,
    null,
    null,
    location,
    null,
    null,
    "SNACK BAR",
    kind,
    license,
    "3605550100",
    "THE SNACK",
    "SNACK LLC",
  ];

  it("counts a notice repeated on its day once, reads a location out of form whole, and skips a row without a number", async () => {
    const path = temp.path("notices.db");
    const db = new Database(path);
    db.exec(`CREATE TABLE licenses (${COLUMNS})`);
    const insert = db.prepare(`INSERT INTO licenses VALUES (${Array(13).fill("?").join(", ")})`);
    insert.run(notice(1, "5/1/2024", "012345", "NEW APPLICATION", "1 MAIN ST,\u00a0\u00a0OLYMPIA,\u00a0WA\u00a098501"));
    insert.run(notice(2, "5/1/2024", "012345", "NEW APPLICATION", "1 MAIN ST,\u00a0\u00a0OLYMPIA,\u00a0WA\u00a098501"));
    insert.run(notice(3, "5/2/2024", "012346", "NEW APPLICATION", "SOMEWHERE IN OLYMPIA"));
    insert.run(notice(4, "5/2/2024", "", "NEW APPLICATION", "1 MAIN ST,\u00a0\u00a0OLYMPIA,\u00a0WA\u00a098501"));
    db.close();
    const { records, files, skips } = await readAll(waWslcb, [path]);
    expect([...records.keys()]).toEqual(["012345", "012346"]);
    expect(skips.map((s) => [s.at.line, s.skip]).sort()).toEqual([
      [2, WA_SKIPS.repeated],
      [4, "no license number"],
    ]);
    expect(records.get("012346")!.record.address).toEqual({
      line_1: "SOMEWHERE IN OLYMPIA",
      line_2: null,
      city: "",
      county: "",
      state: "WA",
      zip: "",
    });
    expect(files[0]!.repairs.list().map((r) => [r.reason, r.count])).toEqual([[WA_ADDRESS_REPAIRS.notInForm, 1]]);
  });

  it("refuses a database without the notices' table, and a CSV", async () => {
    const other = temp.path("other.db");
    const db = new Database(other);
    db.exec("CREATE TABLE restaurants (tabc_permit_number TEXT)");
    db.close();
    await expect(waWslcb.inspect(sourceFile(other))).rejects.toThrow(UnknownLayoutError);
    const csv = temp.path("notices.csv");
    writeFileSync(csv, "license_number,notification_date\n012345,5/1/2024\n");
    await expect(waWslcb.inspect(sourceFile(csv))).rejects.toThrow(
      /notices\.csv: is not a SQLite database; expected one with table licenses/,
    );
  });
});
