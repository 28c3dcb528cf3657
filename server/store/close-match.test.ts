import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { License } from "../../src/contract/license.ts";
import { sharedData } from "../testing/adapter-test-helpers.ts";
import { importSource } from "../data/import/import-source.ts";
import { maAbcc } from "../data/sources/ma-abcc/adapter.ts";
import { nySla } from "../data/sources/ny-sla/adapter.ts";
import { createLicenseRepo } from "./license-repo.ts";
import { licenseFixture } from "../testing/license-fixture.ts";
import { openDatabase, type Db } from "./open-database.ts";
import { replaceState } from "./replace-state.ts";

// The examples of issue 17, on the agencies' own files: what a clerk types from an invoice or a call.
let db: Db;
let search: (state: string, by: "name" | "address", q: string) => License[];

beforeAll(async () => {
  db = openDatabase(":memory:");
  await importSource(db, nySla, [sharedData("ny/nyc_bars.csv")]);
  await importSource(db, maAbcc, [sharedData("ma/ma_license_list.csv")]);
  const repo = createLicenseRepo(db);
  search = (state, by, q) => repo.search({ state, by, q }).map((doc) => JSON.parse(doc) as License);
}, 60_000);
afterAll(() => db.close());

describe("search that forgives a typo, on the real lists", () => {
  it("puts DEAD RABBIT TAVERN first for “dead rabit” in New York", () => {
    expect(search("ny", "name", "dead rabit")[0]?.business).toBe("DEAD RABBIT TAVERN");
  });

  it("puts UNION OYSTER HOUSE first for “unoin oyster” in Massachusetts", () => {
    expect(search("ma", "name", "unoin oyster")[0]?.business).toBe("UNION OYSTER HOUSE");
  });

  it("takes initials written apart or together as the same word", () => {
    for (const q of ["pj clarkes", "p j clarkes", "p.j. clarke's"]) {
      expect(search("ny", "name", q)[0]?.business, q).toBe("P J CLARKE'S");
    }
    expect(search("ny", "name", "rj's place")[0]?.business).toBe("R J'S PLACE INC");
  });

  it("finds an address with a street name mistyped", () => {
    const found = search("ny", "address", "30 wter street");
    expect(found.map((l) => l.address.line_1)).toContain("30 WATER STREET");
  });

  it("answers exact matches alone when there are any: a typo's neighbours never join them", () => {
    const exact = search("ny", "name", "dead rabbit");
    expect(exact.length).toBeGreaterThan(0);
    expect(
      exact.every((l) => /DEAD/.test(`${l.business} ${l.owner}`) && /RABBIT/.test(`${l.business} ${l.owner}`)),
    ).toBe(true);
  });

  it("still finds nothing for what is near no word at all", () => {
    expect(search("ny", "name", "qxzqxz")).toEqual([]);
  });
});

describe("initials typed together, where the letters also make a word of the data", () => {
  it("takes “tjs wine” for T J'S WINE BAR though TJS GROUP LLC exists, and keeps “new” whole beside a typo", async () => {
    const small = openDatabase(":memory:");
    const rec = (license: string, business: string, owner: string) => licenseFixture({ license, business, owner });
    await replaceState(small, { state: "ny", source: "test", asOf: null }, [
      rec("1", "T J'S WINE BAR", "TJWB RESTAURANT GROUP CORP"),
      rec("2", "T J'S PUB", "TJS GROUP LLC"),
      rec("3", "NEW YORK WINE", "N Y W LLC"),
    ]);
    const repo = createLicenseRepo(small);
    const names = (q: string) =>
      repo.search({ state: "ny", by: "name", q }).map((doc) => (JSON.parse(doc) as License).business);
    expect(names("tjs wine")).toEqual(["T J'S WINE BAR"]);
    expect(names("tjs")).toEqual(["T J'S PUB"]);
    expect(names("new yrok")).toEqual(["NEW YORK WINE"]);
    small.close();
  });
});
