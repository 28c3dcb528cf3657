import { readFileSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { LicenseSchema } from "../../../src/contract/license.ts";
import { createLicenseRepo } from "../../store/license-repo.ts";
import { loadSource } from "../../store/load-source.ts";
import { openDatabase, type Db } from "../../store/open-database.ts";
import { licenseFixture } from "../../testing/license-fixture.ts";
import { caAbc } from "../sources/ca-abc/adapter.ts";
import { importSource } from "./import-source.ts";
import { maAbcc } from "../sources/ma-abcc/adapter.ts";
import { njAbc } from "../sources/nj-abc/adapter.ts";
import { nySla } from "../sources/ny-sla/adapter.ts";
import { SourceFileError } from "../sources/source-adapter.ts";
import { sharedData, tempFolder } from "../../testing/adapter-test-helpers.ts";

const NY_ACTIVE = sharedData("ny/nyc_bars.csv");
const NY_APPLICATIONS = sharedData("ny/NYS_Liquor_Authority_New_Applications_Received.csv");
const MA_LIST = sharedData("ma/ma_license_list.csv");
const NJ_LIST = sharedData("nj/nj_bar_store_licenses.csv");
const NJ_REPORT = sharedData("nj/nj_retail_licensees_april2026.xlsx");
const CA_ARCHIVE = sharedData("ca/ca_abc_daily_status_change_reports_2023-05-09_to_2024-04-01.tar.gz");
const NOW = () => new Date("2026-05-02T10:00:00Z");

const temp = tempFolder();
afterAll(() => temp.done());
let db: Db;
beforeEach(() => {
  db = openDatabase(temp.path(`licenses-${Math.random().toString(36).slice(2)}.sqlite`), { create: true });
});
afterEach(() => db.close());

const served = (state: string, license: string) => {
  const doc = createLicenseRepo(db).get(state, license);
  return doc === null ? null : LicenseSchema.parse(JSON.parse(doc));
};
const coverage = (state: string) =>
  createLicenseRepo(db)
    .coverage()
    .find((c) => c.state === state);
const provenance = (state: string, license: string) => createLicenseRepo(db).provenance(state, license);

/** A state's data as it was before an import that must not change it: one demo record. */
async function seedDemoNy() {
  await loadSource(
    db,
    {
      state: "ny",
      adapter: "demo",
      family: "demo",
      kind: "roster",
      agency: "License Lookup",
      title: "Generated demo licenses",
      coverage: "made-up licenses for trying the app",
      file: null,
      sha256: null,
      bytes: null,
      asOf: "2020-01-01",
      asOfFrom: "generated",
    },
    [licenseFixture({ license: "OLD-1" })],
  );
}

/** A hand-made SLA active list: the header of the real file and the given rows. */
function activeList(name: string, rows: string[]): string {
  const header = readFileSync(NY_ACTIVE, "utf8").split(/\r?\n/, 1)[0]!;
  const path = temp.path(name);
  writeFileSync(path, [header, ...rows].join("\n") + "\n");
  return path;
}
/** A row of that list: the original issue date stands for the list's as-of date, as the real file has none. */
const activeRow = (license: string, dba: string, originalIssue: string) =>
  `${license},"ON-PREMISES LIQUOR",252,"OP","New York City",1,"KINGS","${dba} LLC","${dba}","1 MAIN ST","","BROOKLYN","NY",11201,1,"${originalIssue}","${originalIssue}","12/31/2027",,,`;

describe("importSource", () => {
  it("imports both SLA lists as New York's sources, each with its own date, rows, repairs and skips", async () => {
    const result = await importSource(db, nySla, [NY_ACTIVE, NY_APPLICATIONS], { now: NOW });
    const [active, applications] = result.files;
    expect(active).toMatchObject({ title: "Liquor Authority Quarterly List of Active Licenses", asOf: "2016-01-14" });
    expect(active).toMatchObject({ asOfFrom: "the newest date in the file", rowsRead: 6659, observations: 6657 });
    // nyc_bars.csv repeats 1274868 on lines 124 and 4528 and 1275957 on 4910: each is counted once.
    expect(active!.skips.list()).toEqual([
      {
        reason: "repeated row (the same license with the same facts): counted once",
        count: 2,
        examples: [
          { file: "nyc_bars.csv", line: 4528 },
          { file: "nyc_bars.csv", line: 4910 },
        ],
      },
    ]);
    expect(applications).toMatchObject({ title: "NYS Liquor Authority New Applications Received", asOf: "2020-02-04" });
    // Two applications have their ZIP split across State and Zip (and others other faults): repaired, not dropped.
    expect(applications).toMatchObject({ rowsRead: 1676, observations: 1676 });
    expect(applications!.skips.total).toBe(0);
    expect(applications!.repairs.list().find((r) => r.reason.startsWith("ZIP split"))).toMatchObject({
      reason: "ZIP split across the State and Zip columns: joined, state taken as NY",
      count: 2,
      examples: [
        { file: "NYS_Liquor_Authority_New_Applications_Received.csv", line: 813 },
        { file: "NYS_Liquor_Authority_New_Applications_Received.csv", line: 1610 },
      ],
    });
    // Six licenses are in both: the newer applications are their word.
    expect([active!.served, applications!.served]).toEqual([6651, 1676]);
    expect(result.records).toBe(6651 + 1676);

    const ny = coverage("ny")!;
    expect(ny.records).toBe(8327);
    // Every served record is one source's word.
    expect(ny.sources.reduce((n, s) => n + s.records, 0)).toBe(ny.records);
    expect(ny.sources.map((s) => [s.agency, s.file, s.as_of, s.records])).toEqual([
      ["New York State Liquor Authority", "nyc_bars.csv", "2016-01-14", 6651],
      ["New York State Liquor Authority", "NYS_Liquor_Authority_New_Applications_Received.csv", "2020-02-04", 1676],
    ]);
    expect(ny.sources[0]!.coverage).toMatch(/^New York City on-premises liquor licenses only/);
    expect(ny.sources[0]!.sha256).toMatch(/^[0-9a-f]{64}$/);
  }, 20_000);

  it("gives every served record its own source and as-of date, and a license in both files the newer one's facts", async () => {
    await importSource(db, nySla, [NY_ACTIVE, NY_APPLICATIONS], { now: NOW });
    // 1189562: CAFE ORLIN in the January 2016 list, PAPER DAISY in the application of 2019-12-05.
    expect(served("ny", "1189562")).toMatchObject({ business: "PAPER DAISY", status: "pending" });
    expect(provenance("ny", "1189562")).toMatchObject({
      as_of: "2020-02-04",
      source: { file: expect.stringMatching(/Applications/) },
    });
    // A license only the 2016 list has is as of 2016, not the state's newest date.
    expect(provenance("ny", "1275754")).toMatchObject({ as_of: "2016-01-14", source: { file: "nyc_bars.csv" } });
    expect(provenance("ny", "NO-SUCH")).toBeNull();
  }, 20_000);

  it("keeps the newest source's facts when the older file is imported after it, in a separate run", async () => {
    await importSource(db, nySla, [NY_APPLICATIONS], { now: NOW });
    const second = await importSource(db, nySla, [NY_ACTIVE], { now: NOW });
    expect(second.files[0]).toMatchObject({ observations: 6657, served: 6651 });
    expect(served("ny", "1189562")).toMatchObject({ business: "PAPER DAISY" });
    expect(coverage("ny")!.sources.map((s) => s.file)).toEqual([
      "NYS_Liquor_Authority_New_Applications_Received.csv",
      "nyc_bars.csv",
    ]);
  }, 20_000);

  it("changes nothing when the same file is imported again, and says when it was first loaded", async () => {
    await importSource(db, nySla, [NY_ACTIVE], { now: NOW });
    const before = served("ny", "1275754");
    const again = await importSource(db, nySla, [NY_ACTIVE], { now: () => new Date("2026-06-01T00:00:00Z") });
    expect(again.rebuilt).toBe(false);
    expect(again.files[0]).toMatchObject({ alreadyLoadedAt: expect.stringMatching(/^2026-05-02 10:00/), rowsRead: 0 });
    expect(served("ny", "1275754")).toEqual(before);
    expect(coverage("ny")!.sources).toHaveLength(1);
  }, 20_000);

  it("with --replace, starts the state over from the files given (the applications' licenses going, once accepted)", async () => {
    await importSource(db, nySla, [NY_ACTIVE, NY_APPLICATIONS], { now: NOW });
    // Starting over drops what the other sources served, as a cut-off list would: the shrink guard asks first.
    await expect(importSource(db, nySla, [NY_ACTIVE], { now: NOW, replace: true })).rejects.toThrow(
      "would stop serving 1,670 of the 8,327 licenses NY serves now",
    );
    expect(coverage("ny")!.records).toBe(8327);
    await importSource(db, nySla, [NY_ACTIVE], { now: NOW, replace: true, acceptShrink: true });
    expect(coverage("ny")!.sources.map((s) => s.file)).toEqual(["nyc_bars.csv"]);
    expect(served("ny", "1189562")).toMatchObject({ business: "CAFE ORLIN", status: "active" });
    expect(coverage("ny")!.records).toBe(6657);
  }, 20_000);

  it("takes a newer export of the same list as the list: a license it leaves out is no longer served", async () => {
    const older = activeList("active-2024.csv", [
      activeRow("9000001", "KEPT BAR", "03/01/2024"),
      activeRow("9000002", "GONE BAR", "03/02/2024"),
    ]);
    const newer = activeList("active-2025.csv", [
      activeRow("9000001", "KEPT BAR RENAMED", "03/01/2024"),
      activeRow("9000003", "NEW BAR", "06/30/2025"),
    ]);
    await importSource(db, nySla, [newer], { now: NOW });
    await importSource(db, nySla, [older], { now: NOW });
    expect(served("ny", "9000001")).toMatchObject({ business: "KEPT BAR RENAMED" });
    expect(served("ny", "9000002")).toBeNull();
    expect(served("ny", "9000003")).not.toBeNull();
    expect(provenance("ny", "9000001")).toMatchObject({ as_of: "2025-06-30", source: { file: "active-2025.csv" } });
    // The older list stays a source (its word is kept for history), though no record is its word now.
    expect(coverage("ny")!.sources.map((s) => [s.file, s.records])).toEqual([
      ["active-2025.csv", 2],
      ["active-2024.csv", 0],
    ]);
  });

  it("replaces demo data the state had, source and all", async () => {
    await seedDemoNy();
    expect(coverage("ny")!.sources.map((s) => s.title)).toEqual(["Generated demo licenses"]);
    await importSource(db, nySla, [NY_ACTIVE], { now: NOW });
    expect(served("ny", "OLD-1")).toBeNull();
    expect(coverage("ny")!.sources.map((s) => s.file)).toEqual(["nyc_bars.csv"]);
  }, 20_000);

  it("imports California's reports as one source, as of its latest report, each license as of its own last report", async () => {
    const result = await importSource(db, caAbc, [CA_ARCHIVE], { now: NOW, asOf: "1999-01-01" });
    expect(result.files[0]).toMatchObject({ rowsRead: 31520, asOf: "2024-04-01", asOfFrom: "stated in the file" });
    expect(result.files[0]!.coverage).toMatch(/^licenses whose status changed between 2023-05-09 and 2024-04-01: /);
    expect(result.records + result.refused.total).toBe(16039);
    expect(served("ca", "416310")).toMatchObject({ status: "cancelled", dates: { ca: { effective: "2024-01-16" } } });
    expect(provenance("ca", "416310")).toMatchObject({
      as_of: "2024-01-16",
      source: { agency: "California Department of Alcoholic Beverage Control", as_of: "2024-04-01" },
    });
  }, 30_000);

  it("names a source and as-of date for every Massachusetts and New Jersey record", async () => {
    await importSource(db, maAbcc, [MA_LIST], { now: NOW, asOf: "2026-04-01" });
    await importSource(db, njAbc, [NJ_LIST, NJ_REPORT], { now: NOW });
    const [ma, nj] = [coverage("ma")!, coverage("nj")!];
    expect(ma.sources.map((s) => [s.agency, s.as_of, s.as_of_from, s.records])).toEqual([
      ["Massachusetts Alcoholic Beverages Control Commission", "2026-04-01", "given at import", ma.records],
    ]);
    // The April 2026 report states its date; the older list is of the same family, so the report is the list.
    expect(nj.sources.map((s) => [s.file, s.as_of, s.as_of_from, s.records])).toEqual([
      ["nj_bar_store_licenses.csv", expect.stringMatching(/^20\d\d-\d\d-\d\d$/), "the newest date in the file", 0],
      ["nj_retail_licensees_april2026.xlsx", "2026-04-01", "stated in the file", nj.records],
    ]);
    expect(provenance("nj", "0102-33-103-011")).toMatchObject({
      as_of: "2026-04-01",
      source: {
        agency: "New Jersey Division of Alcoholic Beverage Control",
        file: "nj_retail_licensees_april2026.xlsx",
      },
    });
    expect(provenance("ma", "00780-RS-0116")).toMatchObject({
      as_of: "2026-04-01",
      source: { file: "ma_license_list.csv" },
    });
  }, 30_000);

  it("leaves the old data served when a file cannot be read", async () => {
    await seedDemoNy();
    await expect(importSource(db, nySla, [NY_ACTIVE, temp.path("missing.csv")])).rejects.toThrow(
      new SourceFileError(`${temp.path("missing.csv")}: cannot be read: no such file`),
    );
    expect(served("ny", "OLD-1")).not.toBeNull();
    expect(served("ny", "1275754")).toBeNull();
  });

  it("leaves the old data served when a file has an unknown layout", async () => {
    await seedDemoNy();
    const other = temp.path("other.csv");
    writeFileSync(other, "a,b\n1,2\n");
    await expect(importSource(db, nySla, [NY_ACTIVE, other])).rejects.toThrow(/other\.csv: unknown layout/);
    expect(coverage("ny")).toMatchObject({ records: 1, sources: [{ title: "Generated demo licenses" }] });
  });

  it("leaves the old data served when no row is usable, saying why, and keeps no half-loaded source", async () => {
    await seedDemoNy();
    const empty = activeList("no-numbers.csv", [activeRow("", "X", "01/01/2010")]);
    await expect(importSource(db, nySla, [empty])).rejects.toThrow(
      `${basename(empty)}: has no usable row: all 1 were skipped: no license number (1). The state's existing data was left as it was.`,
    );
    expect(coverage("ny")).toMatchObject({ records: 1, sources: [{ title: "Generated demo licenses" }] });
    expect(db.prepare("SELECT count(*) FROM datasets WHERE status <> 'live'").pluck().get()).toBe(0);
    expect(db.prepare("SELECT count(*) FROM sources WHERE status <> 'loaded'").pluck().get()).toBe(0);
  });
});
