import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { LicenseSchema } from "../../../../src/contract/license.ts";
import { createLicenseRepo } from "../../../store/license-repo.ts";
import { openDatabase, type Db } from "../../../store/open-database.ts";
import { datesOf, readAll, sharedData, tempFolder } from "../../../testing/adapter-test-helpers.ts";
import { importSource } from "../../import/import-source.ts";
import { sourceFile } from "../../readers/source-file.ts";
import { addressFromParts, addressFromText } from "./address.ts";
import { dcAbra, UNSTATED_STATUS } from "./adapter.ts";
import { listDate } from "./list-date.ts";
import { writeFileSync } from "node:fs";
import Papa from "papaparse";
import { dcLayerFeatures, realRecords } from "../../../testing/agency-files.ts";

/** The 16 lists, oldest first, with the as-of each must have and how it is known. */
const LISTS: [path: string, asOf: string, asOfFrom: string][] = [
  ["dc/history/ABCLicensees112005.xls", "2005-11-01", "the first day of the month the file states"],
  ["dc/history/ABCLicensees112006.xls", "2006-11-01", "the first day of the month the file states"],
  ["dc/history/ABCLicensees92007.xls", "2007-09-01", "the first day of the month the file states"],
  ["dc/history/ABCLicensees122008.xls", "2008-12-01", "the first day of the month the file states"],
  ["dc/history/ABCLicensees122009.xls", "2009-12-01", "the first day of the month the file states"],
  ["dc/history/ABCLicensees112010.xls", "2010-11-01", "the first day of the month the file states"],
  ["dc/history/ABCLicensees102011.xls", "2011-10-01", "the first day of the month the file states"],
  // Its sheet is named "ABC Licensees April 25, 2016": a typo.
  ["dc/history/DistrictABCLicensees4252012.xls", "2012-04-25", "the file's name"],
  ["dc/history/DistrictABCLicensees7202012.xls", "2012-07-20", "stated in the file"],
  ["dc/history/DistrictABCLicensees12132012.xls", "2012-12-13", "stated in the file"],
  ["dc/history/DistrictABCLicenseesAug2013.xlsx", "2013-08-01", "the first day of the month the file states"],
  ["dc/history/DistrictABCLicenseeList1272014.xls", "2014-01-27", "stated in the file"],
  ["dc/history/DistrictABCLicenseeList-4232014.xlsx", "2014-04-23", "the file's name"],
  ["dc/history/DistrictABCLicenseeLists-8272014.xls", "2014-08-27", "stated in the file"],
  ["dc/DistrictABCLicensees-772015.xlsx", "2015-07-07", "stated in the file"],
  ["dc/DistrictABCLicenseeList842016.xls", "2016-08-04", "stated in the file"],
];
const PATHS = LISTS.map(([path]) => sharedData(path));
/** A list by the date in its file's name. */
const named = (date: string) => PATHS.find((path) => path.includes(date))!;
const LIST_2005 = named("112005");
const LIST_2007 = named("92007");
const LIST_2010 = named("112010");
const LIST_2011 = named("102011");
const LIST_2012_04 = named("4252012");
const LIST_2013 = named("Aug2013");
const LIST_2014_08 = named("8272014");
const LIST_2015 = named("772015");
const LIST_2016 = named("842016");
const ALL_LISTS = 120_000;

const fix = { repaired: () => undefined };

/** The Tune Inn's premises (ABRA-000559), in the one form every list's spelling of them must come out as. */
const TUNE_INN = {
  line_1: "331 PENNSYLVANIA AVE SE",
  line_2: null,
  city: "WASHINGTON",
  county: "DISTRICT OF COLUMBIA",
  state: "DC",
  zip: "20003",
};

describe("dc-abra, each list's head", () => {
  it.each(LISTS)("%s inspects as an ABRA list as of %s (%s)", async (path, asOf, asOfFrom) => {
    const inspection = await dcAbra.inspect(sourceFile(sharedData(path)));
    expect(inspection).toMatchObject({ title: "ABRA ABC Licensees", family: "dc-abra: ABC licensees", asOf, asOfFrom });
  });

  it("dates a list by its title, its sheet's name or its own name, and a month alone by its first day", () => {
    const sheet = (name: string, sheetName: string) => listDate({ preamble: [], sheet: sheetName, name });
    expect(sheet("ABCLicensees112005.xls", "ABC Licensess November 2005")).toEqual({
      asOf: "2005-11-01",
      asOfFrom: "the first day of the month the file states",
    });
    // 112005 also reads as January 1, 2005: the sheet says which.
    expect(sheet("ABCLicensees112005.xls", "Sheet1")).toBeNull();
    expect(sheet("DistrictABCLicensees4252012.xls", "ABC Licensees April 25, 2016")).toMatchObject({
      asOf: "2012-04-25",
    });
    // Renamed, the file keeps only its sheet's word.
    expect(sheet("dc.xls", "ABC Licensees April 25, 2016")).toMatchObject({ asOf: "2016-04-25" });
    expect(listDate({ preamble: [["ABC Licensees as of August 4, 2016"]], sheet: null, name: "x.xls" })).toEqual({
      asOf: "2016-08-04",
      asOfFrom: "stated in the file",
    });
  });
});

describe(
  "dc-abra, the 16 lists of 2005-2016",
  async () => {
    const { files, records, refused, histories } = await readAll(dcAbra, PATHS);
    /** A history's entries with their lists named by file, not by load order. */
    const told = (history: ReturnType<typeof histories.get>, paths: string[]) =>
      history!.entries.map((e) => [e.event, e.since, e.date, paths[e.source - 1]!.split("/").at(-1), e.changes]);
    const list = (path: string) => files.find((f) => f.path === path)!;
    const facts = (path: string, license: string) =>
      list(path).observations.find((o) => o.license === license)?.facts as Record<string, unknown> | undefined;

    it("reads every list, skipping only a header repeated among the rows and rows that repeat a license", () => {
      expect(files.map((f) => f.observations.length)).toEqual([
        1564, 1481, 1461, 1561, 1572, 1606, 1730, 1654, 1665, 1794, 1840, 1906, 1918, 1943, 1963, 1926,
      ]);
      expect(list(LIST_2011).skips.list()).toEqual([
        expect.objectContaining({ reason: "the header repeated among the licenses", count: 1 }),
      ]);
      expect(refused).toEqual([]);
    });

    it("finds District Liquors as ABRA-000023 in every list, its 2005 number a bare 23, written the same each time", () => {
      for (const path of PATHS) {
        const zip = path === LIST_2007 || path === LIST_2014_08 ? "" : "20001";
        expect(facts(path, "ABRA-000023"), path).toMatchObject({
          business: "District Liquors",
          owner: "Don Ho Inc",
          address: { line_1: "1211 11TH ST NW", line_2: null, city: "WASHINGTON", state: "DC", zip },
          details: { class: "A", type: "Retail - Liquor Store", description: "Retailer A (Retail - Liquor Store)" },
        });
      }
    });

    it("keeps Press Liquors' two licenses apart: ABRA-000009 to 2006, ABRA-076197 (a new owner) from 2007", () => {
      expect(facts(LIST_2005, "ABRA-000009")).toMatchObject({
        business: "Press Liquors",
        owner: "Press Liquors Inc.",
        status: UNSTATED_STATUS,
        address: { line_1: "527 14TH ST NW", zip: "20004" },
      });
      expect(facts(LIST_2007, "ABRA-000009")).toBeUndefined();
      // The 2011 list writes "525 14 ST NW": the numbered street gets its ordinal.
      expect(facts(LIST_2011, "ABRA-076197")).toMatchObject({
        business: "Press Liquors",
        owner: "Lim Enterprises, Corp",
        address: { line_1: "525 14TH ST NW" },
      });
    });

    describe("history", () => {
      it("District Liquors, ABRA-000023: listed in all 16 lists, November 2005 to August 2016, without a gap or a change", () => {
        expect(histories.get("ABRA-000023")).toEqual({
          entries: [{ event: "first_seen", date: "2005-11-01", since: null, source: 1, changes: [] }],
          listings: [{ from: "2005-11-01", to: "2016-08-04", lists: 16, first_source: 1, last_source: 16 }],
        });
      });

      it("Big D Liquors, ABRA-000214: in the list of August 2014, no longer listed as of July 2015, with what it was", () => {
        const [gone] = histories.get("ABRA-000214")!.entries;
        expect(gone).toMatchObject({ event: "no_longer_listed", since: "2014-08-27", date: "2015-07-07" });
        expect(gone!.changes).toContainEqual({
          field: "business",
          license_type: null,
          from: "Big D Liquors",
          to: null,
        });
        expect(histories.get("ABRA-000214")!.listings).toEqual([expect.objectContaining({ to: "2014-08-27" })]);
      });

      it("Press Liquors' two numbers stay two histories: 9 no longer listed in 2007, ABRA-076197 first listed then", () => {
        expect(told(histories.get("ABRA-000009"), PATHS).map((e) => e.slice(0, 3))).toEqual([
          ["no_longer_listed", "2006-11-01", "2007-09-01"],
          ["first_seen", null, "2005-11-01"],
        ]);
        expect(told(histories.get("ABRA-076197"), PATHS).map((e) => e.slice(0, 3))).toEqual([
          ["first_seen", "2006-11-01", "2007-09-01"],
        ]);
      });

      it("takes names the August 2013 list cut short for no change: Booeymonger, Kramerbooks", () => {
        expect(facts(LIST_2013, "ABRA-003495")?.business).toBe("Booeymong er");
        expect(facts(LIST_2013, "ABRA-011919")?.business).toBe("Kramerbook s &");
        for (const license of ["ABRA-011919", "ABRA-003495"])
          expect(histories.get(license)!.entries.map((e) => e.event)).toEqual(["first_seen"]);
      });

      it("a status the older lists do not state is no change: the first status-bearing list changes nothing", () => {
        const statusChanges = [...histories.values()].flatMap((h) =>
          h.entries.flatMap((e) => e.changes.filter((c) => c.field === "status" && e.event === "changed")),
        );
        expect(statusChanges.length).toBeGreaterThan(0);
        expect(statusChanges.filter((c) => c.from === UNSTATED_STATUS || c.to === UNSTATED_STATUS)).toEqual([]);
      });
    });

    it("maps a 2016 row as the list gives it: the Tune Inn", () => {
      expect(facts(LIST_2016, "ABRA-000559")).toEqual({
        license: "ABRA-000559",
        business: "Tune Inn Restaurant",
        owner: "Tune Inn Inc.",
        phone: null,
        state: "dc",
        status: "active",
        address: TUNE_INN,
        dates: { effective: null, expires: null, issued_original: null, issued_latest: null },
        details: { class: "C", description: "Retailer C/T (Tavern)", type: "Tavern" },
      });
    });

    it("reads the statuses each list gives, and says `listed` where it gives none", () => {
      const statuses = (path: string) =>
        new Set(list(path).observations.map((o) => (o.facts as { status: string }).status));
      expect(statuses(LIST_2016)).toEqual(new Set(["active", "safekeeping", "new construction", "awaiting license"]));
      expect(statuses(LIST_2015)).toEqual(
        new Set(["active", "safekeeping", "new construction", "issued", "stipulated"]),
      );
      // "Safekee\nping" and "Stipulat\ned": the PDF's line breaks.
      expect(statuses(LIST_2013)).toEqual(new Set(["active", "safekeeping", "stipulated"]));
      // August 2014 writes 405.1 alone.
      expect(statuses(LIST_2014_08)).toEqual(new Set(["active", "safekeeping", "new construction"]));
      for (const path of [LIST_2005, LIST_2010, LIST_2011, LIST_2012_04]) {
        expect(statuses(path)).toEqual(new Set([UNSTATED_STATUS]));
      }
    });

    it("reads the August 2013 list made from a PDF: numbers and types rejoined, names as far as it gives them", () => {
      expect(list(LIST_2013).observations).toHaveLength(1840);
      expect(facts(LIST_2013, "ABRA-000010")).toMatchObject({
        business: "Pauls Discount",
        owner: "Pauls Liquors Inc.",
        details: { type: "Retail - Liquor Store" },
      });
      // Capital City Brewing Company, LLC elsewhere: the PDF kept two lines of each cell.
      expect(facts(LIST_2013, "ABRA-016838")).toMatchObject({ business: "Capital City Brewing" });
      expect(list(LIST_2013).coverage).toMatch(/cut short/);
    });

    it("reads class and type from a 2005-2010 Description in the later lists' words", () => {
      // "Retailer CT 03", class C tavern, in every list from 2005 to 2010; "Tavern" with Class C from 2011.
      for (const path of [LIST_2005, LIST_2010, LIST_2011, LIST_2016]) {
        expect(facts(path, "ABRA-016838"), path).toMatchObject({
          details: { class: "C", type: "Tavern", description: "Retailer C/T (Tavern)" },
        });
      }
      // "Caterer" in 2010; no class or type at all in October 2011.
      expect(facts(LIST_2010, "ABRA-077595")).toMatchObject({ details: { class: "Caterer", type: "Caterer" } });
      expect(facts(LIST_2011, "ABRA-077595")).toMatchObject({ details: { class: null, type: "" } });
    });

    it("writes a unit as line 2, however the list gives it", () => {
      // "A" in the 2005 unit column, "1100 NEW YORK AVE NW A" in 2012, "1100 NEW YORK AVE NW, #A" in 2016.
      for (const path of [LIST_2005, LIST_2012_04, LIST_2016]) {
        expect(facts(path, "ABRA-016838"), path).toMatchObject({
          address: { line_1: "1100 NEW YORK AVE NW", line_2: "#A" },
        });
      }
    });

    it("publishes no dates: every date is null, Nov 2010's Date License Issued included", () => {
      const record = records.get("ABRA-000023")!.record;
      expect(datesOf(record)).toEqual({ effective: null, expires: null, issued_original: null, issued_latest: null });
      expect(facts(LIST_2010, "ABRA-000023")).toMatchObject({ dates: { issued_latest: null, issued_original: null } });
    });

    it("serves the newest list: its licenses as it has them, a license it leaves out not at all", () => {
      expect(records.get("ABRA-000559")).toMatchObject({ asOf: "2016-08-04", path: LIST_2016 });
      expect(records.has("ABRA-000009")).toBe(false);
      expect(records.size).toBe(1926);
      for (const { record } of records.values())
        LicenseSchema.parse({ object: "license", ...record, updated_at: "2026-05-02 10:00:00.000000" });
    });
  },
  ALL_LISTS,
);

describe("dc-abra, an address in one form", () => {
  it("writes each year's form of one place the same way", () => {
    const parts = {
      number: "331",
      street: "PENNSYLVANIA",
      type: "AVENUE",
      quadrant: "SE",
      unit: "",
      cityState: "Washington, DC",
      zip: "20003",
    };
    const forms = [
      addressFromParts(parts, fix),
      addressFromParts({ ...parts, street: "PENNSYLVANIA AVE", type: "", cityState: "" }, fix),
      addressFromText("331 PENNSYLVANIA AVE SE\nWashington, DC 20003", fix),
      addressFromText("331 Pennsylvania AVE SE, WASHINGTON, DC 20003", fix),
      addressFromText("331 PENNSYLVANIA AVE SE Washington, DC 20003", fix),
    ];
    for (const form of forms) {
      expect(form).toEqual(TUNE_INN);
    }
  });

  it("mends what the lists garble: a half number, a street type twice, a cut quadrant, a street wrapped over lines", () => {
    expect(
      addressFromParts(
        { number: "331.5", street: "PENNSYLVANIA", type: "AVE", quadrant: "SE", unit: "", cityState: "", zip: "20003" },
        fix,
      ),
    ).toMatchObject({ line_1: "331 1/2 PENNSYLVANIA AVE SE" });
    expect(addressFromText("5501 Connecticut Avenue AVE\nNW", fix)).toMatchObject({
      line_1: "5501 CONNECTICUT AVE NW",
      zip: "",
    });
    expect(addressFromText("4822 MACARTHUR BLVD N B\nWashington, DC 20007", fix)).toMatchObject({
      line_1: "4822 MACARTHUR BLVD NW",
      line_2: "#B",
    });
    expect(addressFromText("2757 M.L. KING JR., AVE SE, Washington, DC 20032", fix)).toMatchObject({
      line_1: "2757 MARTIN LUTHER KING JR AVE SE",
    });
    expect(addressFromText("5618 - 5626 CONNECTICUT AVE NW\nWashington, DC 20015", fix)).toMatchObject({
      line_1: "5618 CONNECTICUT AVE NW",
    });
  });

  it("keeps a premises outside the District where it is, and leaves a place unknown empty", () => {
    expect(addressFromText("205 The Strand, Alexandria, VA 22314", fix)).toMatchObject({
      line_1: "205 THE STRAND",
      city: "ALEXANDRIA",
      county: "",
      state: "VA",
      zip: "22314",
    });
    // No quadrant, city or ZIP (September 2007 has no ZIP column): not said to be in Washington.
    expect(
      addressFromParts(
        { number: "0", street: "PRINCE", type: "STREET", quadrant: "", unit: "", cityState: "", zip: "" },
        fix,
      ),
    ).toMatchObject({ line_1: "0 PRINCE ST", city: "", county: "", state: "DC" });
  });
});

describe("importing the DC lists", () => {
  const temp = tempFolder();
  afterAll(() => temp.done());
  let db: Db;
  beforeEach(() => {
    db = openDatabase(temp.path(`dc-${Math.random().toString(36).slice(2)}.sqlite`), { create: true });
  });
  afterEach(() => db.close());
  const served = (license: string) => {
    const doc = createLicenseRepo(db).get("dc", license);
    return doc === null ? null : LicenseSchema.parse(JSON.parse(doc));
  };

  it("keeps the August 2016 list live when the April 2012 list is imported after it", async () => {
    const NOW = () => new Date("2026-05-02T10:00:00Z");
    await importSource(db, dcAbra, [LIST_2016], { now: NOW });
    const older = await importSource(db, dcAbra, [LIST_2012_04], { now: NOW });
    expect(older.files[0]).toMatchObject({ asOf: "2012-04-25", asOfFrom: "the file's name", served: 0 });
    expect(served("ABRA-000559")).toMatchObject({ status: "active", details: { class: "C", type: "Tavern" } });
    expect(createLicenseRepo(db).provenance("dc", "ABRA-000559")).toMatchObject({ as_of: "2016-08-04" });
    expect(served("ABRA-087100")).toMatchObject({ business: "Southern Express Liquors" });
    // Winebow is in the 2012 list, not in the 2016 one: no longer listed.
    expect(served("ABRA-072284")).toBeNull();
    expect(older.records).toBe(1926);
  }, 60_000);
});

describe("dc-abra, the layer on DC GIS a sync fetches, a layout we hold no real file of", () => {
  const temp = tempFolder();
  afterAll(() => temp.done());

  it("reads our real records written as the layer's features, with their expiry", async () => {
    const real = await realRecords("dc-abra", "dc/DistrictABCLicenseeList842016.xls");
    const features = dcLayerFeatures(real, Date.parse("2026-05-14T12:00:00Z"));
    const path = temp.path("alcohol-license-business-locations.csv");
    writeFileSync(path, Papa.unparse(features, { newline: "\n" }));
    const read = await readAll(dcAbra, [path], { asOf: "2026-05-14" });
    expect(read.files[0]!.skips.list()).toEqual([]);
    expect(read.records.size).toBe(real.length);
    for (const record of real) {
      expect(read.records.get(record.license)!.record).toEqual({
        ...record,
        dates: { dc: { ...record.dates.dc!, expires: "2027-09-30" } },
      });
    }
  });
});
