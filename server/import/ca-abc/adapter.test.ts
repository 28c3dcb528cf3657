import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { create } from "tar";
import { afterAll, describe, expect, it } from "vitest";
import { caAbc } from "./adapter.ts";
import { SourceFileError } from "../source-adapter.ts";
import { sourceFile } from "../readers/source-file.ts";
import { readAll, sharedData, tempFolder } from "../adapter-test-helpers.ts";

const ARCHIVE = sharedData("ca/ca_abc_daily_status_change_reports_2023-05-09_to_2024-04-01.tar.gz");
const ARCHIVE_NAME = ARCHIVE.split("/").at(-1)!;
const temp = tempFolder();
afterAll(() => temp.done());

describe("ca-abc, the archive of 234 daily status-change reports", async () => {
  const { records, skips } = await readAll(caAbc, [ARCHIVE]);

  it("folds all 31,520 report rows into the 16,039 licenses they name", () => {
    expect(skips).toEqual([]);
    expect(records.size).toBe(16039);
    expect([...records.values()].reduce((sum, r) => sum + r.rows, 0)).toBe(31520);
  });

  it("states the latest report's date as its as-of date", async () => {
    expect(await caAbc.inspect(sourceFile(ARCHIVE))).toEqual({
      layout: "CA ABC daily status changes report",
      asOf: "2024-04-01",
    });
  });

  it("ends a license whose status changed twice in its latest state", () => {
    // 2023-05-10 "416310","ACTIVE SUSPEN","20 | 0","11/09/2004","10/31/2023","DBA: AMIGOS MARKET … PRAJAPATI, CHETNABEN H … 431 OJAI RD, … SANTA PAULA, CA  93060",…
    // 2024-01-12 "416310","SUSPEN ACTIVE",…,"10/31/2024",…   2024-01-16 "416310","ACTIVE CANCEL",…,"10/31/2024",…,"431 OJAI RD","SANTA PAULA","56","93060",…
    expect(records.get("416310")).toEqual({
      at: { file: `${ARCHIVE_NAME}/downloads/2024-01-16/report-status-changes.csv`, line: 10 },
      rows: 4,
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
        dates: { effective: "2024-01-16", expires: "2024-10-31", issued_original: "2004-11-09", issued_latest: null },
        details: { class: null, description: null, type: "20" },
      },
    });
  });

  it("splits the unit off Prem Street as address line 2", () => {
    // "627999","REVPEN ACTIVE","21 | 0","04/06/2022","03/31/2024","DBA: TRADER JOE'S STORE 256 … TRADER JOES COMPANY … 500 BROADWAY, #10, …",
    // …,"500 BROADWAY, #10","SANTA MONICA","19","90401",…
    expect(records.get("627999")!.record).toMatchObject({
      business: "TRADER JOE'S STORE 256",
      owner: "TRADER JOES COMPANY",
      status: "active",
      address: { line_1: "500 BROADWAY", line_2: "#10", city: "SANTA MONICA", county: "Los Angeles", zip: "90401" },
      dates: { expires: "2024-03-31", issued_original: "2022-04-06" },
      details: { type: "21" },
    });
  });

  it("keeps a license active while any of its types is, though another type was cancelled that day", () => {
    // 2023-05-17: "613611","ACTIVE CANCEL","42 | 0",…  "613611","PEND ACTIVE","41 | 1",…  "613611","PEND ACTIVE","58 | 1",…
    expect(records.get("613611")!.record).toMatchObject({ status: "active", details: { type: "41, 58" } });
  });

  it("keeps a status word it has no plain word for, lower-cased", () => {
    // 2024-01-11 "512890","SUREND REVPEN","20 | 0",…
    expect(records.get("512890")!.record.status).toBe("revpen");
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
    expect(records.get("641472")!.record).toMatchObject({
      business: "7 ELEVEN INC",
      status: "withdrawn",
      address: { line_1: "", line_2: null, city: "", county: "", state: "CA", zip: "" },
      dates: { effective: "2023-05-11", expires: null, issued_original: null, issued_latest: null },
    });
  });
});

describe("ca-abc, hand-made reports", () => {
  const HEADER =
    '"License Number","Status Changed From/To","Type| Dup","Original Issue Date","Expir. Date","Primary Owner and Premises Addr.",' +
    '"Mailing Addr.","Transfer-From/To","Conditions","Escrow","District Code","Geo Code","Prem Street","City","County","Zip Code",' +
    '"Mailing Street","Mailing City","Mailing Zip Code","Mailing State"';
  const pad = " ".repeat(24);
  const row = (license: string, change: string, type: string, dates: [string, string], dba: string) =>
    [
      license,
      change,
      `${type} | 0`,
      dates[0],
      dates[1],
      `DBA: ${dba}${pad}SOME OWNER LLC${pad}1 MAIN ST, STE 2,${pad}FRESNO, CA  93701`,
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

  function report(day: string, rows: string[]): string {
    mkdirSync(temp.path(day), { recursive: true });
    const path = join(temp.path(day), "report-status-changes.csv");
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

  it("folds reports in date order whatever order the files come in, leading zeros kept", async () => {
    for (const order of [
      [day1, day2],
      [day2, day1],
    ]) {
      const { records } = await readAll(caAbc, order);
      expect(records.get("0012345")).toMatchObject({
        rows: 2,
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
          dates: { effective: "2024-01-03", expires: "2024-12-31", issued_original: "2024-01-02", issued_latest: null },
          details: { type: "41" },
        },
      });
    }
  });

  it("skips each kind of bad row with its reason and line", async () => {
    const { records, skips } = await readAll(caAbc, [day1]);
    expect([...records.keys()].sort()).toEqual(["0012345", "777"]);
    expect(skips.map((s) => [s.at.line, s.skip])).toEqual([
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
    expect(await caAbc.inspect(sourceFile(archive))).toEqual({
      layout: "CA ABC daily status changes report",
      asOf: "2024-01-03",
    });
    const { records } = await readAll(caAbc, [archive]);
    expect(records.get("0012345")).toMatchObject({
      at: { file: "reports.tar.gz/2024-01-03/report-status-changes.csv", line: 2 },
      record: { status: "suspended" },
    });
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
