import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { create } from "tar";
import { afterAll, describe, expect, it } from "vitest";
import { caAbc } from "./adapter.ts";
import { SourceFileError } from "../source-adapter.ts";
import { sourceFile } from "../../readers/source-file.ts";
import { datesOf, readAll, sharedData, tempFolder } from "../../../testing/adapter-test-helpers.ts";

const ARCHIVE = sharedData("ca/ca_abc_daily_status_change_reports_2023-05-09_to_2024-04-01.tar.gz");
const REPEATED = "repeated row (the same change of the license on the same day): counted once";
const temp = tempFolder();
afterAll(() => temp.done());

describe("ca-abc, the archive of 234 daily status-change reports", async () => {
  const { records, files, histories } = await readAll(caAbc, [ARCHIVE]);
  const [archive] = files;
  const observed = (license: string) => archive!.observations.filter((o) => o.license === license);
  const record = (license: string) => records.get(license)!.record;

  it("reads all 31,520 report rows, counts a repeated change once, and folds them into the 16,039 licenses they name", () => {
    expect(archive!.rowsRead).toBe(31520);
    expect(archive!.skips.list().map((s) => [s.reason, s.count])).toEqual([[REPEATED, 2646]]);
    expect(archive!.observations).toHaveLength(31520 - 2646);
    expect(records.size).toBe(16039);
  });

  it("states the latest report's date as its as-of date, and what the reports cover", async () => {
    expect(await caAbc.inspect(sourceFile(ARCHIVE))).toMatchObject({
      layout: "CA ABC daily status changes report",
      title: "ABC Daily Licensing Reports: Status Changes",
      asOf: null,
    });
    expect(archive).toMatchObject({
      asOf: "2024-04-01",
      asOfFrom: "stated in the file",
      coverage: expect.stringMatching(/^licenses whose status changed between 2023-05-09 and 2024-04-01/),
    });
  });

  it("ends a license whose status changed twice in its latest state", () => {
    // 2023-05-10 "416310","ACTIVE SUSPEN","20 | 0","11/09/2004","10/31/2023","DBA: AMIGOS MARKET … PRAJAPATI, CHETNABEN H … 431 OJAI RD, … SANTA PAULA, CA  93060",… (twice)
    // 2024-01-12 "416310","SUSPEN ACTIVE",…,"10/31/2024",…   2024-01-16 "416310","ACTIVE CANCEL",…,"10/31/2024",…,"431 OJAI RD","SANTA PAULA","56","93060",…
    expect(observed("416310").map((o) => [o.asOf, o.line])).toEqual([
      ["2023-05-10", 15],
      ["2024-01-16", 10],
      ["2024-01-12", 6],
    ]);
    expect(records.get("416310")).toEqual({
      path: ARCHIVE,
      asOf: "2024-01-16",
      record: {
        license: "416310",
        business: "AMIGOS MARKET",
        owner: "PRAJAPATI, CHETNABEN H",
        phone: null,
        state: "ca",
        status: "cancelled",
        address: {
          line_1: "431 OJAI RD",
          line_2: null,
          city: "SANTA PAULA",
          county: "Ventura",
          state: "CA",
          zip: "93060",
        },
        dates: {
          ca: { effective: "2024-01-16", expires: "2024-10-31", issued_original: "2004-11-09", issued_latest: null },
        },
        details: { class: null, description: null, type: "20" },
      },
    });
  });

  it("splits the unit off Prem Street as address line 2", () => {
    // "627999","REVPEN ACTIVE","21 | 0","04/06/2022","03/31/2024","DBA: TRADER JOE'S STORE 256 … TRADER JOES COMPANY … 500 BROADWAY, #10, …",
    // …,"500 BROADWAY, #10","SANTA MONICA","19","90401",…
    expect(record("627999")).toMatchObject({
      business: "TRADER JOE'S STORE 256",
      owner: "TRADER JOES COMPANY",
      status: "active",
      address: { line_1: "500 BROADWAY", line_2: "#10", city: "SANTA MONICA", county: "Los Angeles", zip: "90401" },
      dates: { ca: { expires: "2024-03-31", issued_original: "2022-04-06" } },
      details: { type: "21" },
    });
  });

  it("keeps a license active while any of its types is, though another type was cancelled that day", () => {
    // 2023-05-09 "613611","PEND ACTIVE","41 | 1","05/16/2023",…  "613611","PEND ACTIVE","58 | 1",…
    // 2023-05-17: "613611","ACTIVE CANCEL","42 | 0","06/11/2020",…  "613611","PEND ACTIVE","41 | 1",…  "613611","PEND ACTIVE","58 | 1",…
    expect(record("613611")).toMatchObject({
      status: "active",
      dates: { ca: { effective: "2023-05-09", issued_original: "2023-05-16" } },
      details: { type: "41, 58" },
    });
  });

  it("gives an active license the dates of its active type, not of the type cancelled after it", () => {
    // 2023-05-10 "578170","PEND ACTIVE","47 | 0","05/10/2023","04/30/2024",…
    // 2023-05-12 "578170","ACTIVE CANCEL","41 | 0","10/02/2017","07/31/2023",…
    expect(record("578170")).toMatchObject({
      status: "active",
      dates: { ca: { effective: "2023-05-10", expires: "2024-04-30", issued_original: "2023-05-10" } },
      details: { type: "47" },
    });
  });

  it("keeps a status word it has no plain word for, lower-cased", () => {
    // 2024-01-11 "512890","SUREND REVPEN","20 | 0",…
    expect(record("512890").status).toBe("revpen");
  });

  it("takes an out-of-state premises' state from the postal line", () => {
    const hanson = [...records.values()].find((r) => r.record.business === "HANSON VINEYARDS")!.record;
    expect(hanson.address).toMatchObject({
      line_1: "34948 S BARLOW RD",
      city: "WOODBRUN",
      county: "",
      state: "OR",
      zip: "97071",
    });
  });

  it("leaves dates a pending application lacks as null", () => {
    // "641472","PEND WITHDRAWN","21 | 0","","","7 ELEVEN INC                         ,",…
    expect(record("641472")).toMatchObject({
      business: "7 ELEVEN INC",
      status: "withdrawn",
      address: { line_1: "", line_2: null, city: "", county: "", state: "CA", zip: "" },
      dates: { ca: { effective: "2023-05-11", expires: null, issued_original: null, issued_latest: null } },
    });
  });

  describe("a status takes effect on the first report that carries it, not on a later one repeating it", () => {
    it("535296, active to cancelled on 2023-05-09, repeated on 2023-07-25", () => {
      expect(observed("535296").map((o) => o.asOf)).toEqual(["2023-07-25", "2023-05-09"]);
      expect(record("535296")).toMatchObject({
        business: "KITCHEN THE",
        status: "cancelled",
        dates: { ca: { effective: "2023-05-09" } },
      });
    });

    it("632232, pending to active on 2023-05-09 (its original issue date), repeated on 2023-05-10", () => {
      expect(record("632232")).toMatchObject({
        business: "SOUVENIR",
        status: "active",
        dates: { ca: { effective: "2023-05-09", issued_original: "2023-05-09" } },
      });
    });

    it("512730, surrender withdrawn on 2023-07-10, active again through repeats until 2023-10-24", () => {
      // 2023-07-10 and 07-19 "SUREND ACTIVE"; 2023-07-19 and 10-24 "WTHDRN ACTIVE": active all along.
      expect(record("512730")).toMatchObject({ status: "active", dates: { ca: { effective: "2023-07-10" } } });
    });
  });

  describe("history: each change on the first report that carries it", () => {
    const entries = (license: string) =>
      histories.get(license)!.entries.map((e) => [e.event, e.date, e.since, e.changes]);

    it("535296: cancelled, effective 2023-05-09; the report of 2023-07-25 repeating it adds nothing", () => {
      expect(entries("535296")).toEqual([
        ["first_seen", "2023-05-09", null, [{ field: "status", license_type: "47", from: "active", to: "cancelled" }]],
      ]);
    });

    it("578170: type 47 active on 2023-05-10 (repeated on 05-11), type 41 cancelled on 2023-05-12, each on its own date", () => {
      expect(entries("578170")).toEqual([
        ["changed", "2023-05-12", null, [{ field: "status", license_type: "41", from: "active", to: "cancelled" }]],
        ["first_seen", "2023-05-10", null, [{ field: "status", license_type: "47", from: "pending", to: "active" }]],
      ]);
    });

    it("a license with a single report has one entry, and a source of changes never says 'no longer listed'", () => {
      expect(observed("100196")).toHaveLength(1);
      expect(histories.get("100196")!.entries).toHaveLength(1);
      const events = new Set([...histories.values()].flatMap((h) => h.entries.map((e) => e.event)));
      expect(events).toEqual(new Set(["first_seen", "changed"]));
      expect([...histories.values()].every((h) => h.listings.length === 0)).toBe(true);
    });
  });

  it("keeps an owner a later report leaves out: 610400, whose last report (2024-01-24) gives none", () => {
    // 2023-09-01 "DBA: EL MEZAVITE … PALOMINOS ARROYO, ANDRES JR … 2119 PATTERSON RD, STE 1 & 3, …"
    // 2024-01-24 "ACTIVE CANCEL",…,"DBA: EL MEZAVITE … 2119 PATTERSON RD, STE 1 & 3, …"
    expect(record("610400")).toMatchObject({
      business: "EL MEZAVITE",
      owner: "PALOMINOS ARROYO, ANDRES JR",
      status: "cancelled",
      dates: { ca: { effective: "2024-01-24" } },
    });
  });

  it("keeps an owner written with a trailing comma: 649065's SEOUL COLLECTIVE.ENT INC.,", () => {
    expect(record("649065")).toMatchObject({ business: "CALIFORNIA MINI MART", owner: "SEOUL COLLECTIVE.ENT INC." });
  });

  it("keeps an owner whose name starts with its premises' street", () => {
    // "3110 MAIN STREET LLC … 3110 MAIN ST, …" and "1870 HARBOR BLVD, LLC … 1870 HARBOR BLVD, STE L1-108, …"
    expect(record("506642").owner).toBe("3110 MAIN STREET LLC");
    expect(record("644607")).toMatchObject({
      business: "WESTWOOD COAST",
      owner: "1870 HARBOR BLVD, LLC",
      address: { line_1: "1870 HARBOR BLVD", line_2: "STE L1-108" },
    });
  });

  it("keeps the expiry and issue date when a reinstatement leaves them blank", () => {
    // Each had an expiry until a withdrawn cancellation or surrender ("WTHDRN ACTIVE", dates blank)
    // made it active again; 636550 ended its issued types the day it withdrew two pending ones.
    const dates = (license: string) => [record(license).status, datesOf(record(license))];
    expect(dates("605057")).toEqual([
      "active",
      { effective: "2023-06-28", expires: "2023-06-30", issued_original: "2019-08-30", issued_latest: null },
    ]);
    expect(dates("529329")).toEqual([
      "active",
      { effective: "2023-06-12", expires: "2024-02-29", issued_original: "2013-03-29", issued_latest: null },
    ]);
    expect(dates("512730")).toEqual([
      "active",
      { effective: "2023-07-10", expires: "2024-08-31", issued_original: "2011-09-15", issued_latest: null },
    ]);
    expect(dates("636550")).toEqual([
      "withdrawn",
      { effective: "2023-12-11", expires: "2023-11-30", issued_original: "2022-11-29", issued_latest: null },
    ]);
  });

  it("617995: a surrender withdrawn under a new trade name keeps the license's term, and takes the new name", () => {
    // 2023-08-31 "ACTIVE SUREND","47 | 0","10/01/2021","09/30/2024","DBA: 8028 SALON BISTRO & BAR … NIXON B 2016 INC. …"
    // 2023-09-18 "WTHDRN ACTIVE","47 | 0","","","DBA: GENESIS BISTRO … NIXON B 2016 INC. …" (the same owner and premises)
    expect(record("617995")).toMatchObject({
      business: "GENESIS BISTRO",
      owner: "NIXON B 2016 INC.",
      status: "active",
      address: { line_1: "8028 N CEDAR AVE", city: "FRESNO" },
      dates: { ca: { effective: "2023-09-18", expires: "2024-09-30", issued_original: "2021-10-01" } },
    });
  });

  it("counts a change once when a report lists it twice or the day was downloaded twice", () => {
    // downloads/2023-05-10: "589084","ACTIVE SUSPEN","20 | 0",… on lines 68, 69 and 70.
    expect(observed("589084").map((o) => [o.asOf, o.line])).toEqual([["2023-05-10", 68]]);
    // downloads/A/2023-12-28 and downloads/2023-12-28 both list "56770","ACTIVE SUREND" on line 2.
    expect(observed("56770").map((o) => o.asOf)).toEqual(["2023-12-28"]);
    // Each download of a day holds rows the other lacks: both are read.
    expect(observed("628705").map((o) => o.asOf)).toEqual(["2023-12-28"]); // only in downloads/A/2023-12-28
    expect(observed("610073").map((o) => o.asOf)).toContain("2024-01-23"); // only in downloads/2024-01-23
  });
});

describe("ca-abc, hand-made reports", () => {
  const HEADER =
    '"License Number","Status Changed From/To","Type| Dup","Original Issue Date","Expir. Date","Primary Owner and Premises Addr.",' +
    '"Mailing Addr.","Transfer-From/To","Conditions","Escrow","District Code","Geo Code","Prem Street","City","County","Zip Code",' +
    '"Mailing Street","Mailing City","Mailing Zip Code","Mailing State"';
  const pad = " ".repeat(24);
  const row = (
    license: string,
    change: string,
    type: string,
    dates: [string, string],
    dba: string,
    owner = "SOME OWNER LLC",
  ) =>
    [
      license,
      change,
      `${type} | 0`,
      dates[0],
      dates[1],
      `DBA: ${dba}${pad}${owner}${owner ? pad : ""}1 MAIN ST, STE 2,${pad}FRESNO, CA  93701`,
      "",
      "",
      "",
      "",
      "10",
      "1000",
      "1 MAIN ST, STE 2",
      "FRESNO",
      "10",
      "93701",
      "",
      "",
      "",
      "",
    ]
      .map((v) => `"${v}"`)
      .join(",");

  /** A day's report, in downloads/<day>/ under `folder` (as the ABC scraper saves them). */
  function report(day: string, rows: string[], folder = ""): string {
    mkdirSync(temp.path(join(folder, day)), { recursive: true });
    const path = join(temp.path(join(folder, day)), "report-status-changes.csv");
    writeFileSync(path, [HEADER, ...rows].join("\r\n"));
    return path;
  }

  const day1 = report("2024-01-02", [
    row("0012345", "PEND ACTIVE", "41", ["01/02/2024", "12/31/2024"], "FIRST NAME"),
    row("777", "PEND ACTIVE", "20", ["01/02/2024", "12/31/2024"], "SEVENS"),
    row("", "PEND ACTIVE", "20", ["01/02/2024", "12/31/2024"], "NO NUMBER"),
    row("888", "", "20", ["01/02/2024", "12/31/2024"], "NO CHANGE"),
    row("889", "ACTIVE", "20", ["01/02/2024", "12/31/2024"], "ONE WORD"),
    row("890", "PEND ACTIVE", "20", ["01/32/2024", "12/31/2024"], "BAD DATE"),
    '"891","PEND ACTIVE"',
  ]);
  const day2 = report("2024-01-03", [
    row("0012345", "ACTIVE SUSPEN", "41", ["01/02/2024", "12/31/2024"], "SECOND NAME"),
  ]);

  it("tells a history in date order whatever order the files come in: a status and a trade name changing on one day are one entry", async () => {
    for (const order of [
      [day1, day2],
      [day2, day1],
    ]) {
      const { histories } = await readAll(caAbc, order);
      expect(histories.get("0012345")!.entries.map((e) => [e.event, e.date, e.changes])).toEqual([
        [
          "changed",
          "2024-01-03",
          [
            { field: "status", license_type: "41", from: "active", to: "suspended" },
            { field: "business", license_type: null, from: "FIRST NAME", to: "SECOND NAME" },
          ],
        ],
        ["first_seen", "2024-01-02", [{ field: "status", license_type: "41", from: "pending", to: "active" }]],
      ]);
    }
  });

  it("folds reports in date order whatever order the files come in, leading zeros kept", async () => {
    for (const order of [
      [day1, day2],
      [day2, day1],
    ]) {
      const { records, files } = await readAll(caAbc, order);
      expect(files.flatMap((f) => f.observations).filter((o) => o.license === "0012345")).toHaveLength(2);
      expect(records.get("0012345")).toMatchObject({
        path: day2,
        asOf: "2024-01-03",
        record: {
          license: "0012345",
          business: "SECOND NAME",
          owner: "SOME OWNER LLC",
          status: "suspended",
          address: {
            line_1: "1 MAIN ST",
            line_2: "STE 2",
            city: "FRESNO",
            county: "Fresno",
            state: "CA",
            zip: "93701",
          },
          dates: {
            ca: { effective: "2024-01-03", expires: "2024-12-31", issued_original: "2024-01-02", issued_latest: null },
          },
          details: { type: "41" },
        },
      });
    }
  });

  it("skips each kind of bad row with its reason and line", async () => {
    const { records, skips } = await readAll(caAbc, [day1]);
    expect([...records.keys()].sort()).toEqual(["0012345", "777"]);
    expect(skips.map((s) => [s.at.line, s.skip]).sort()).toEqual([
      [4, "no license number"],
      [5, "no status change"],
      [6, "unreadable status change (not two status words)"],
      [7, "unreadable original issue date"],
      [8, "wrong number of columns (2, the header has 20)"],
    ]);
  });

  it("reads the same reports from a tar.gz of their folders", async () => {
    const archive = temp.path("reports.tar.gz");
    await create({ gzip: true, file: archive, cwd: temp.dir }, ["2024-01-02", "2024-01-03"]);
    expect(await caAbc.inspect(sourceFile(archive))).toMatchObject({
      layout: "CA ABC daily status changes report",
      asOf: null,
    });
    const { records, files } = await readAll(caAbc, [archive]);
    expect(files[0]).toMatchObject({ asOf: "2024-01-03", asOfFrom: "stated in the file" });
    expect(files[0]!.observations.filter((o) => o.license === "0012345").at(-1)).toMatchObject({
      asOf: "2024-01-03",
      line: 2,
    });
    expect(records.get("0012345")).toMatchObject({
      path: archive,
      asOf: "2024-01-03",
      record: { status: "suspended" },
    });
  });

  it("dates a status from its first report: a repeat on a later day does not move it, a real change does", async () => {
    const active = (license: string, from = "PEND") =>
      row(license, `${from} ACTIVE`, "41", ["02/01/2024", "01/31/2025"], `SHOP ${license}`);
    const { records } = await readAll(caAbc, [
      report("2024-02-01", [active("100"), active("200")], "first"),
      report("2024-02-03", [row("200", "ACTIVE SUSPEN", "41", ["02/01/2024", "01/31/2025"], "SHOP 200")], "first"),
      report("2024-02-04", [active("200", "SUSPEN")], "first"),
      report("2024-02-05", [active("100"), active("200", "SUSPEN")], "first"),
    ]);
    expect(records.get("100")).toMatchObject({ asOf: "2024-02-05", record: { status: "active" } });
    expect(datesOf(records.get("100")!.record).effective).toBe("2024-02-01");
    expect(records.get("200")).toMatchObject({ asOf: "2024-02-05", record: { status: "active" } });
    expect(datesOf(records.get("200")!.record).effective).toBe("2024-02-04");
  });

  it("carries a value a later report leaves blank, and takes a value a later report changes", async () => {
    const { records } = await readAll(caAbc, [
      report(
        "2024-03-01",
        [
          row("300", "ACTIVE SUREND", "47", ["10/01/2021", "09/30/2024"], "OLD NAME"),
          row("400", "PEND ACTIVE", "20", ["03/01/2024", "02/28/2025"], "SHOP", "FIRST OWNER"),
        ],
        "carry",
      ),
      report(
        "2024-03-04",
        [
          row("300", "WTHDRN ACTIVE", "47", ["", ""], "NEW NAME", ""),
          row("400", "ACTIVE SUSPEN", "20", ["03/01/2024", "02/28/2026"], "SHOP", "NEW OWNER"),
        ],
        "carry",
      ),
    ]);
    expect(records.get("300")!.record).toMatchObject({
      business: "NEW NAME",
      owner: "SOME OWNER LLC",
      status: "active",
      address: { line_1: "1 MAIN ST", city: "FRESNO", zip: "93701" },
      dates: { ca: { effective: "2024-03-04", expires: "2024-09-30", issued_original: "2021-10-01" } },
    });
    expect(records.get("400")!.record).toMatchObject({
      owner: "NEW OWNER",
      status: "suspended",
      dates: { ca: { effective: "2024-03-04", expires: "2026-02-28", issued_original: "2024-03-01" } },
    });
  });

  it("counts a row once when a report repeats it or the day is downloaded twice", async () => {
    const change = row("500", "ACTIVE CANCEL", "20", ["01/01/2020", "12/31/2024"], "TWICE");
    const other = row("600", "PEND ACTIVE", "41", ["04/01/2024", "03/31/2025"], "ONLY IN A");
    report("2024-04-01", [change, change], "twice/downloads");
    report("2024-04-01", [change, other], "twice/downloads/A");
    const archive = temp.path("twice.tar.gz");
    await create({ gzip: true, file: archive, cwd: temp.path("twice") }, ["downloads"]);
    const { records, files } = await readAll(caAbc, [archive]);
    expect(files[0]!.observations.map((o) => [o.license, o.asOf])).toEqual(
      expect.arrayContaining([
        ["500", "2024-04-01"],
        ["600", "2024-04-01"],
      ]),
    );
    expect(files[0]!.observations).toHaveLength(2);
    expect(files[0]!.skips.list().map((s) => [s.reason, s.count])).toEqual([[REPEATED, 2]]);
    expect(records.get("500")!.record.status).toBe("cancelled");
  });

  it("refuses a report of an unknown layout, naming it", async () => {
    const other = sharedData("ca/tomthehuman_report_status_changes.csv");
    const error = await caAbc.inspect(sourceFile(other)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceFileError);
    expect((error as Error).message).toContain(`${other}: unknown layout`);
    expect((error as Error).message).toMatch(/missing Prem Street, City, County, Zip Code/);
  });

  it("refuses a report whose path does not say its day", async () => {
    const undated = temp.path("report.csv");
    writeFileSync(undated, [HEADER, row("1", "PEND ACTIVE", "20", ["", ""], "X")].join("\n"));
    await expect(caAbc.inspect(sourceFile(undated))).rejects.toThrow(
      /report\.csv: cannot tell which day this report is for/,
    );
  });
});
