import { readFileSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import type { LicenseRecord } from "../../../store/license-record.ts";
import { readAll, sharedData, tempFolder } from "../../../testing/adapter-test-helpers.ts";
import { ZIP_REPAIRS } from "../../import/fields.ts";
import { csvRows } from "../../readers/csv-rows.ts";
import { sourceFile } from "../../readers/source-file.ts";
import { UnknownLayoutError } from "../source-adapter.ts";
import { GA_REPAIRS, GA_SKIPS, gaDor, listedBoth } from "./adapter.ts";

const LIST = sharedData("ga/liquor_licenses.csv");
const temp = tempFolder();
afterAll(() => temp.done());

const REPEATED = "repeated row (the same license with the same facts): counted once";
const BOTH = listedBoth(["active", "inactive"]);

/** A Georgia record: the list gives a number, a status, one name and an address; no owner, phone, county, dates or type. */
function gaRecord(
  license: string,
  status: string,
  business: string,
  address: { line_1: string; city: string; state?: string; zip: string },
): LicenseRecord {
  return {
    license,
    business,
    owner: "",
    phone: null,
    state: "ga",
    status,
    address: {
      line_1: address.line_1,
      line_2: null,
      city: address.city,
      county: "",
      state: address.state ?? "GA",
      zip: address.zip,
    },
    dates: { ga: { effective: null, expires: null, issued_original: null, issued_latest: null } },
    details: { class: null, description: null, type: "" },
  };
}

describe("ga-dor, the DOR's statewide list of alcohol licensees", async () => {
  const read = await readAll(gaDor, [LIST]);
  const { records, files, outcomes } = read;
  const file = files[0]!;
  const tally = (list: ReturnType<typeof file.repairs.list>) =>
    list.map((r) => [r.reason, r.count, r.examples.map((e) => e.line)]);
  const served = (license: string) => records.get(license)!;
  const address = (license: string) => served(license).record.address;

  it("reads 39,287 rows as 35,387 licenses: the rest repeat a row, or give a license's other status", () => {
    expect(outcomes).toBe(39_287);
    expect(records.size).toBe(35_387);
    expect(tally(file.skips.list())).toEqual([
      // 9 PLAZA LIQUOR STORE, lines 21099 and 22982; POPLAR MART, lines 125 and 10495.
      [REPEATED, 3_898, [10495, 22139, 22140, 22141, 22142]],
      [GA_SKIPS.otherStatus, 2, [23066, 34541]],
    ]);
  });

  it("is as of January 2015, as its publisher dates that exact file, and says what it covers", () => {
    expect(file.asOf).toBe("2015-01-01");
    expect(file.asOfFrom).toBe("the first day of the month its publisher states");
    expect(served("7605").asOf).toBe("2015-01-01");
    expect(file.coverage).toBe(
      "the Department of Revenue's alcohol licenses, statewide, active and inactive (17,098 active, 18,287 inactive, 2 listed both; " +
        "4,491 for premises in other states: shippers and suppliers); the list gives no license type, county or dates",
    );
  });

  it("serves a license field by field: its number, name, status and address told into street and city", () => {
    // line 11519: Georgia,Active,7605,FOX THEATRE #1 MAIN AUDITORIUM,660 PEACHTREE ST ATLANTA GA 30308-1929
    expect(served("7605")).toEqual({
      path: LIST,
      asOf: "2015-01-01",
      record: gaRecord("7605", "active", "FOX THEATRE #1 MAIN AUDITORIUM", {
        line_1: "660 PEACHTREE ST",
        city: "ATLANTA",
        zip: "30308-1929",
      }),
    });
    // line 31392: Georgia,Active,52040,TRADER JOE'S #730,931 MONROE DR NE STE B114 ATLANTA GA 30308-1796
    expect(served("52040").record).toEqual(
      gaRecord("52040", "active", "TRADER JOE'S #730", {
        line_1: "931 MONROE DR NE STE B114",
        city: "ATLANTA",
        zip: "30308-1796",
      }),
    );
  });

  it("serves the old number Inactive and the new one Active at the same premises, each as listed", () => {
    // line 19: Georgia,Inactive,64399,BP OLD NATIONAL,6103 OLD NATIONAL HWY COLLEGE PARK GA 30349-4327
    // line 20: Georgia,Active,64447,BP OLD NATIONAL,6103 OLD NATIONAL HWY COLLEGE PARK GA 30349-4327
    const premises = { line_1: "6103 OLD NATIONAL HWY", city: "COLLEGE PARK", zip: "30349-4327" };
    expect(served("64399").record).toEqual(gaRecord("64399", "inactive", "BP OLD NATIONAL", premises));
    expect(served("64447").record).toEqual(gaRecord("64447", "active", "BP OLD NATIONAL", premises));
  });

  it("keeps a name's quote marks, and a licensee outside Georgia in its own state", () => {
    // line 2: Georgia,Inactive,6901,"""CLUB 23""",10451 GA HIGHWAY 23 GLENNVILLE GA 30427-5746
    expect(served("6901").record).toEqual(
      gaRecord("6901", "inactive", '"CLUB 23"', {
        line_1: "10451 GA HIGHWAY 23",
        city: "GLENNVILLE",
        zip: "30427-5746",
      }),
    );
    // line 1299: Georgia,Inactive,54936,ANDREW GEOFFREY VINEYARDS,836 CHILES AVE SAINT HELENA CA 94574-9512
    expect(served("54936").record).toEqual(
      gaRecord("54936", "inactive", "ANDREW GEOFFREY VINEYARDS", {
        line_1: "836 CHILES AVE",
        city: "SAINT HELENA",
        state: "CA",
        zip: "94574-9512",
      }),
    );
    // line 32: a special event's licensee, as SOURCE.md notes.
    expect(served("53179").record).toMatchObject({ business: "100 BLACK MEN OF ATLANTA INC", status: "inactive" });
  });

  it("serves a license listed both Active and Inactive as that, on its first row, whichever came first: never plain active", () => {
    // line 7844:  Georgia,Inactive,70062,PIG N WHISTLE PACKAGE STORE,1701 N SLAPPY BLV ALBANY GA 31701
    // line 34541: Georgia,Active,70062,PIG N WHISTLE PACKAGE STORE,1701 N SLAPPY BLV ALBANY GA 31701
    expect(served("70062").record).toEqual(
      gaRecord("70062", BOTH, "PIG N WHISTLE PACKAGE STORE", {
        line_1: "1701 N SLAPPY BLV",
        city: "ALBANY",
        zip: "31701",
      }),
    );
    // line 21171: Georgia,Inactive,69373,POP LLC,... line 23066: Georgia,Active,69373,POP LLC,...
    expect(served("69373").record.status).toBe("listed both active and inactive");
    const lines = file.observations.filter((o) => ["70062", "69373"].includes(o.license)).map((o) => o.line);
    expect(lines).toEqual([7844, 21171]);
    expect(tally(file.repairs.list())).toContainEqual([GA_REPAIRS.bothStatuses, 2, [7844, 21171]]);
  });

  it("tells a city whose words are street words from the street before it", () => {
    // ... 1 SAINT IVES COUNTRY CLUB DR JOHNS CREEK GA 30097-5926
    expect(address("55231")).toMatchObject({ line_1: "1 SAINT IVES COUNTRY CLUB DR", city: "JOHNS CREEK" });
    // 2454 HIGHWAY 17 UNIT B SAUTEE NACOOCHEE GA 30571-3040
    expect(address("55558")).toMatchObject({ line_1: "2454 HIGHWAY 17 UNIT B", city: "SAUTEE NACOOCHEE" });
    // 301 LONGVIEW PLAZA BLDG BUILDING ST SIMONS ISLAND GA 31522
    expect(address("67971")).toMatchObject({ line_1: "301 LONGVIEW PLAZA BLDG BUILDING", city: "ST SIMONS ISLAND" });
    // 117 N PARK SQ NE MARIETTA GA 30060-1971; 1430 US HIGHWAY 82 W STE 101 TIFTON GA 31793-8037
    expect(address("36349")).toMatchObject({ line_1: "117 N PARK SQ NE", city: "MARIETTA" });
    expect(address("53471")).toMatchObject({ line_1: "1430 US HIGHWAY 82 W STE 101", city: "TIFTON" });
    // A place named after the street, before the city: 660 PEACHTREE ST NE FOX THEATRE ATLANTA GA 30308-1929.
    expect(address("59757")).toMatchObject({ line_1: "660 PEACHTREE ST NE FOX THEATRE", city: "ATLANTA" });
    // An address that is a place and a city: FORSYTH PARK SAVANNAH GA 31401.
    expect(address("34470")).toMatchObject({ line_1: "FORSYTH PARK", city: "SAVANNAH" });
  });

  it("keeps the whole address as line 1 where no city can be told, and says so", () => {
    // line 924: Georgia,Inactive,48614,ALZHEIMERS ASSOCIATION,MACON CENTRAL CITY PARK MACAON GA 31201
    expect(address("48614")).toEqual({
      line_1: "MACON CENTRAL CITY PARK MACAON",
      line_2: null,
      city: "",
      county: "",
      state: "GA",
      zip: "31201",
    });
    expect(tally(file.repairs.list())).toContainEqual([GA_REPAIRS.noCity, 22, [924, 3009, 3321, 6527, 7579]]);
  });

  it("keeps premises abroad, whose address ends in a country, whole", () => {
    // line 10086: Georgia,Inactive,18522,EUROPVIN S A,65 COURS SAINT LOUIS BORDEAUX 33000 FRANCE
    expect(served("18522").record).toEqual(
      gaRecord("18522", "inactive", "EUROPVIN S A", {
        line_1: "65 COURS SAINT LOUIS BORDEAUX 33000 FRANCE",
        city: "",
        zip: "",
      }),
    );
    // line 32297: Georgia,Active,44519,VINEDOS TERRANOBLE S.A.,AV ANDRES BELLO 2777 OF 901 LA SANTIAGO 00000 CHILE
    expect(address("44519").line_1).toBe("AV ANDRES BELLO 2777 OF 901 LA SANTIAGO 00000 CHILE");
    expect(tally(file.repairs.list())).toContainEqual([GA_REPAIRS.abroad, 2, [10086, 32297]]);
  });

  it("leaves empty a ZIP of 00000 or of another part of the country, and keeps the license", () => {
    // line 33181: Georgia,Inactive,30908,WINN DIXIE STORE # 42,830 OAK ST MCRAE GA 00000
    expect(address("30908")).toMatchObject({ line_1: "830 OAK ST", city: "MCRAE", zip: "" });
    expect(tally(file.repairs.list())).toContainEqual([GA_REPAIRS.zipZeros, 1, [33181]]);
    // line 9223: ... WESTBURY NJ 11590 (a New York ZIP); line 20826: NIAGRA ON LAKE LA 00300 (an Ontario winery).
    expect(address("58588").zip).toBe("");
    expect(address("52363")).toMatchObject({ state: "LA", zip: "" });
    expect(tally(file.repairs.list())).toContainEqual([ZIP_REPAIRS.otherState, 5, [9223, 10774, 16812, 20826, 32345]]);
  });

  it("finds none of issue 12's other faults in the file: blanks, breaks, padded names, rewritten numbers", async () => {
    // Every row on one line (39,288 lines, the header's among them), none blank, no field empty or padded.
    expect(readFileSync(LIST, "utf8").trimEnd().split("\n")).toHaveLength(39_288);
    const faults: number[] = [];
    for await (const row of csvRows(sourceFile(LIST).open())) {
      const cells = "cells" in row ? row.cells.map(String) : [];
      if (cells.length !== 5 || cells.some((cell) => cell === "" || cell !== cell.trim() || /[\r\n]/.test(cell))) {
        faults.push(row.line);
      }
    }
    expect(faults).toEqual([]);
    const all = [...records.values()].map((r) => r.record);
    // Numbers as the DOR gives them: 1 to 5 digits, no zero in front, no 7.0432E+04 (line 34060: 1 RED LOBSTER #36).
    expect(all.filter((r) => !/^[1-9]\d{0,4}$/.test(r.license))).toEqual([]);
    expect(served("1").record.business).toBe("RED LOBSTER #36");
    expect(all.filter((r) => r.business !== r.business.trim() || r.business === "")).toEqual([]);
    expect(file.repairs.list().map((r) => r.reason)).not.toContain(GA_REPAIRS.noStatus);
  });
});

describe("ga-dor, hand-made files", () => {
  const header = "license_state,license_status,license_number,licensee_name_business,establishment_address_full";
  const write = (name: string, rows: string[]) => {
    const path = temp.path(name);
    writeFileSync(path, [header, ...rows].join("\n") + "\n");
    return path;
  };

  it("has no date for another file in its columns unless given one, and serves both statuses whichever row is first", async () => {
    const path = write("ga.csv", [
      "Georgia,Active,12,THE BAR,1 MAIN ST ATLANTA GA 30303",
      "Georgia,Inactive,12,THE BAR,1 MAIN ST ATLANTA GA 30303",
      "Georgia,Active,12,THE BAR,1 MAIN ST ATLANTA GA 30303",
      "Georgia,Inactive,13,OTHER BAR,2 MAIN ST ATLANTA GA 30303",
      "Georgia,Active,13,RENAMED BAR,2 MAIN ST ATLANTA GA 30303",
      "Georgia,,14,NO STATUS,3 MAIN ST ATLANTA GA 30303",
      "Georgia,Active,7.0432E+04,SPREADSHEET BAR,4 MAIN ST ATLANTA GA 30303",
      "Georgia,Active,015,ZERO BAR,5 MAIN ST ATLANTA GA 30303",
      "Florida,Active,16,ELSEWHERE,6 MAIN ST MIAMI FL 33101",
    ]);
    const { records, files } = await readAll(gaDor, [path]);
    expect(files[0]).toMatchObject({ asOf: null, asOfFrom: "not known" });
    expect((await readAll(gaDor, [path], { asOf: "2015-06-30" })).files[0]!.asOf).toBe("2015-06-30");
    expect([...records.values()].map((r) => [r.record.license, r.record.business, r.record.status])).toEqual([
      ["12", "THE BAR", BOTH],
      // Another name as well as another status: the first row is kept, as for any number on two rows with other facts.
      ["13", "OTHER BAR", BOTH],
      ["14", "NO STATUS", ""],
    ]);
    expect(files[0]!.skips.list().map((s) => [s.reason, s.examples.map((e) => e.line)])).toEqual([
      ["license number not in the DOR's form (015)", [9]],
      ["license number not in the DOR's form (7.0432E+04)", [8]],
      ["not a Georgia license (license_state Florida)", [10]],
      [REPEATED, [4]],
      ["the license number is on an earlier row with other facts: the first row is kept", [6]],
      [GA_SKIPS.otherStatus, [3]],
    ]);
    expect(files[0]!.repairs.list().map((r) => [r.reason, r.examples.map((e) => e.line)])).toEqual([
      [GA_REPAIRS.bothStatuses, [2, 5]],
      [GA_REPAIRS.noStatus, [7]],
    ]);
  });

  it("is not the source of another state's licenses in the same columns, nor of a file in other columns", async () => {
    const florida = write("fl.csv", ["Florida,Active,16,ELSEWHERE,6 MAIN ST MIAMI FL 33101"]);
    await expect(gaDor.inspect(sourceFile(florida))).rejects.toThrow(UnknownLayoutError);
    const other = temp.path("other.csv");
    writeFileSync(other, "LICENSE,NAME\n1,X\n");
    await expect(gaDor.inspect(sourceFile(other))).rejects.toThrow(/other\.csv: unknown layout[\s\S]*license_number/);
  });
});
