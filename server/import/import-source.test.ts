import { writeFileSync } from "node:fs";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { LicenseSchema } from "../../src/contract/license.ts";
import { createLicenseRepo } from "../store/license-repo.ts";
import { openDatabase, type Db } from "../store/open-database.ts";
import { replaceState } from "../store/replace-state.ts";
import { licenseFixture } from "../testing/license-fixture.ts";
import { caAbc } from "./ca-abc/adapter.ts";
import { importSource } from "./import-source.ts";
import { nySla } from "./ny-sla/adapter.ts";
import { SourceFileError } from "./source-adapter.ts";
import { sharedData, tempFolder } from "./adapter-test-helpers.ts";

const NY_ACTIVE = sharedData("ny/nyc_bars.csv");
const NY_APPLICATIONS = sharedData("ny/NYS_Liquor_Authority_New_Applications_Received.csv");
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

/** A state's data as it was before an import that must not change it. */
async function seedOldNy() {
  await replaceState(db, { state: "ny", source: "demo", asOf: "2020-01-01" }, [licenseFixture({ license: "OLD-1" })]);
}

describe("importSource", () => {
  it("imports both SLA lists as New York's data, counting every row and every skip", async () => {
    const result = await importSource(db, nySla, [NY_ACTIVE, NY_APPLICATIONS], { now: NOW });
    expect(result).toMatchObject({ source: "ny-sla", state: "ny", rowsRead: 8335, licenses: 8333, imported: 8325 });
    expect(result.asOf).toBe("2026-05-02");
    expect(result.asOfFrom).toBe("import date");
    expect(result.skips.total).toBe(8335 - 8325);
    expect(result.skips.list().map((s) => [s.reason, s.count])).toEqual([
      ["duplicate license number (the first usable row with it is kept)", 8],
      ["address state is not a two-letter code", 2],
    ]);
    // nyc_bars.csv repeats 1274868 on lines 124 and 4528: the first is kept.
    expect(result.skips.list()[0]!.examples[0]).toEqual({ file: "nyc_bars.csv", line: 4528 });
    expect(coverage("ny")).toMatchObject({ source: "ny-sla", records: 8325, as_of: "2026-05-02" });
  }, 15_000);

  it("serves an imported license as the contract shapes it, stamped with the import time", async () => {
    await importSource(db, nySla, [NY_ACTIVE], { now: NOW, asOf: "2016-01-15" });
    expect(coverage("ny")).toMatchObject({ as_of: "2016-01-15" });
    const license = served("ny", "1275754");
    expect(license).toMatchObject({
      object: "license",
      license: "1275754",
      business: "TEMPO LIBERO BAR CORP",
      address: { line_1: "88-08 ROOSEVELT AVE", line_2: "1ST FLOOR", city: "JACKSON HEIGHTS", zip: "11372" },
      dates: {
        ny: { effective: "2014-03-25", expires: "2016-02-28", issued_original: "2014-03-25", issued_latest: null },
      },
    });
    expect(license?.updated_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/);
  });

  it("imports California's folded reports with the latest report's date as as-of", async () => {
    const result = await importSource(db, caAbc, [CA_ARCHIVE], { now: NOW, asOf: "1999-01-01" });
    expect(result).toMatchObject({ rowsRead: 31520, licenses: 16039, asOf: "2024-04-01", asOfFrom: "file" });
    expect(result.imported + result.skips.total).toBe(16039);
    expect(served("ca", "416310")).toMatchObject({ status: "cancelled", dates: { ca: { effective: "2024-01-16" } } });
  }, 30_000);

  it("leaves the old data served when a file cannot be read", async () => {
    await seedOldNy();
    await expect(importSource(db, nySla, [NY_ACTIVE, temp.path("missing.csv")])).rejects.toThrow(
      new SourceFileError(`${temp.path("missing.csv")}: cannot be read: no such file`),
    );
    expect(served("ny", "OLD-1")).not.toBeNull();
    expect(served("ny", "1275754")).toBeNull();
  });

  it("leaves the old data served when a file has an unknown layout", async () => {
    await seedOldNy();
    const other = temp.path("other.csv");
    writeFileSync(other, "a,b\n1,2\n");
    await expect(importSource(db, nySla, [NY_ACTIVE, other])).rejects.toThrow(/other\.csv: unknown layout/);
    expect(coverage("ny")).toMatchObject({ source: "demo", records: 1 });
  });

  it("leaves the old data served when no row is usable, saying why", async () => {
    await seedOldNy();
    const empty = temp.path("no-numbers.csv");
    writeFileSync(
      empty,
      "License Serial Number,License Type Name,License Class Code,License Type Code,County Name (Licensee),Premises Name," +
        "Doing Business As (DBA),Actual Address of Premises (Address1),Additional Address Information (Address2),City,State,Zip," +
        "License Original Issue Date,License Effective Date,License Expiration Date\n" +
        ",ON-PREMISES LIQUOR,252,OP,KINGS,X LLC,X,1 MAIN ST,,BROOKLYN,NY,11201,01/01/2010,01/01/2015,12/31/2016\n",
    );
    await expect(importSource(db, nySla, [empty])).rejects.toThrow(
      `${empty}: has no usable row: all 1 were skipped: no license number (1). The state's existing data was left as it was.`,
    );
    expect(coverage("ny")).toMatchObject({ source: "demo", records: 1 });
    expect(db.prepare("SELECT count(*) FROM datasets WHERE status <> 'live'").pluck().get()).toBe(0);
  });
});
