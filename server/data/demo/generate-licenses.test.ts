import { describe, expect, it } from "vitest";
import { LicenseSchema, type LicenseDates } from "../../../src/contract/license.ts";
import type { LicenseRecord } from "../../store/license-record.ts";
import { DEMO_AS_OF, DEMO_STATES, generateLicenses } from "./generate-licenses.ts";

const many = (state: string, count: number, seed?: number): LicenseRecord[] => [
  ...generateLicenses(state, count, seed),
];
const share = (records: LicenseRecord[], test: (r: LicenseRecord) => boolean) =>
  records.filter(test).length / records.length;
const datesOf = (r: LicenseRecord): LicenseDates => r.dates[r.state]!;
const DAY_MS = 86_400_000;

const SAMPLES = new Map(DEMO_STATES.map((state) => [state, many(state, 2000)]));
const sample = (state: string) => SAMPLES.get(state as (typeof DEMO_STATES)[number])!;

const NUMBER_SHAPES: Record<string, RegExp> = {
  ny: /^\d{7}$/,
  ma: /^\d{5}-[A-Z]{2}-\d{4}$/,
  nj: /^\d{4}-\d{2}-\d{3}-\d{3}$/,
  ca: /^[1-9]\d{5}$/,
  tx: /^[A-Z]{2}\d{6}$/,
  dc: /^ABRA-\d{6}$/,
};

describe("generateLicenses", () => {
  it.each(DEMO_STATES)("%s: every record is a valid v2 license once the store adds its fields", (state) => {
    for (const record of sample(state)) {
      const license = LicenseSchema.parse({ object: "license", updated_at: "2026-01-01 00:00:00.000000", ...record });
      expect(license.state).toBe(state);
      expect(license.address.state).toBe(state.toUpperCase());
    }
  });

  it.each(DEMO_STATES)("%s: the same state, count and seed give the same records, whatever the count", (state) => {
    const again = many(state, 2000);
    expect(again).toEqual(sample(state));
    expect(many(state, 100)).toEqual(sample(state).slice(0, 100));
    expect(many(state, 100, 2)).not.toEqual(sample(state).slice(0, 100));
  });

  it.each(DEMO_STATES)("%s: license numbers have the state's shape and never repeat in 20,000 records", (state) => {
    const numbers = many(state, 20_000, 7).map((r) => r.license);
    expect(new Set(numbers).size).toBe(numbers.length);
    for (const n of numbers) expect(n).toMatch(NUMBER_SHAPES[state]!);
  });

  it("ny: record 0 is always 0012345, and about 5% of numbers keep leading zeros", () => {
    for (const seed of [undefined, 1, 2, 12345])
      expect(generateLicenses("ny", 1, seed).next().value?.license).toBe("0012345");
    const zeroLed = share(sample("ny"), (r) => r.license.startsWith("0"));
    expect(zeroLed).toBeGreaterThan(0.03);
    expect(zeroLed).toBeLessThan(0.08);
    expect(sample("ny").filter((r) => r.license === "0012345")).toHaveLength(1);
  });

  it("ma and nj: the number carries the town, and type matches details.type", () => {
    for (const r of sample("ma")) {
      expect(r.license.split("-")[1]).toBe(r.details.type);
      if (r.address.city === "BOSTON") expect(r.license.endsWith("-0035")).toBe(true);
    }
    for (const r of sample("nj")) {
      expect(r.license.split("-")[1]).toBe(r.details.type);
      if (r.address.city === "PLAINFIELD") expect(r.license.startsWith("2012-")).toBe(true);
    }
    for (const r of sample("tx")) expect(r.license.slice(0, 2)).toBe(r.details.type);
  });

  it.each(DEMO_STATES)("%s: statuses, phones, second lines and nulls come in realistic mixes", (state) => {
    const records = sample(state);
    expect(new Set(records.map((r) => r.status))).toEqual(
      new Set(["active", "expired", "suspended", "pending", "cancelled", "surrendered"]),
    );
    expect(share(records, (r) => r.status === "active")).toBeGreaterThan(0.75);
    expect(share(records, (r) => r.status === "active")).toBeLessThan(0.85);
    expect(share(records, (r) => r.phone !== null)).toBeGreaterThan(0.65);
    expect(share(records, (r) => r.phone !== null)).toBeLessThan(0.75);
    for (const r of records) if (r.phone !== null) expect(r.phone).toMatch(/^\(\d{3}\) 555-01\d{2}$/);
    expect(share(records, (r) => r.address.line_2 !== null)).toBeGreaterThan(0.07);
    expect(share(records, (r) => r.address.line_2 !== null)).toBeLessThan(0.13);
    expect(share(records, (r) => r.details.class === null)).toBeGreaterThan(0.07);
    expect(share(records, (r) => r.details.class === null)).toBeLessThan(0.13);
    expect(share(records, (r) => r.details.description === null)).toBeGreaterThan(0.02);
    expect(share(records, (r) => r.details.description === null)).toBeLessThan(0.08);
    // Among issued licenses: a pending application has no issue dates at all.
    const issued = records.filter((r) => r.status !== "pending");
    expect(share(issued, (r) => datesOf(r).issued_latest === null)).toBeGreaterThan(0.11);
    expect(share(issued, (r) => datesOf(r).issued_latest === null)).toBeLessThan(0.19);
  });

  it.each(DEMO_STATES)("%s: dates are keyed by the state, in order, and spread around the reference date", (state) => {
    const records = sample(state);
    const today = Date.parse(DEMO_AS_OF);
    const active = records
      .filter((r) => r.status === "active")
      .map((r) => (Date.parse(datesOf(r).expires!) - today) / DAY_MS);
    for (const r of records) {
      expect(Object.keys(r.dates)).toEqual([state]);
      if (r.status === "pending") {
        // An application not yet decided: only the day it was received, as state application lists give.
        const d = datesOf(r);
        expect(d).toMatchObject({ expires: null, issued_original: null, issued_latest: null });
        expect(d.effective! <= DEMO_AS_OF).toBe(true);
        continue;
      }
      // Every other demo license has the dates a state may leave out (the contract allows null for those).
      const d = datesOf(r) as {
        effective: string;
        expires: string;
        issued_original: string;
        issued_latest: string | null;
      };
      expect([d.effective, d.expires, d.issued_original].every((x) => x !== null)).toBe(true);
      expect(d.issued_original <= (d.issued_latest ?? d.effective)).toBe(true);
      expect((d.issued_latest ?? d.effective) <= d.effective).toBe(true);
      expect(d.effective < d.expires).toBe(true);
    }
    for (const r of records.filter((r) => r.status === "expired")) expect(datesOf(r).expires! < DEMO_AS_OF).toBe(true);
    expect(active.filter((days) => days < 0).length).toBeGreaterThan(10);
    expect(active.filter((days) => days >= 0 && days <= 60).length).toBeGreaterThan(50);
    expect(active.filter((days) => days > 60).length / active.length).toBeGreaterThan(0.7);
  });

  it.each(DEMO_STATES)("%s: names have common words to search for, rare ones, and real-world punctuation", (state) => {
    const records = sample(state);
    const names = records.flatMap((r) => [r.business, r.owner]);
    expect(names.filter((n) => n.includes("TAVERN")).length).toBeGreaterThan(10);
    expect(names.filter((n) => n.includes("WINE")).length).toBeGreaterThan(10);
    const counts = new Map<string, number>();
    for (const r of records) counts.set(r.business, (counts.get(r.business) ?? 0) + 1);
    expect([...counts.values()].filter((c) => c === 1).length).toBeGreaterThan(500);
    expect(names.some((n) => n.includes("'"))).toBe(true);
    expect(names.some((n) => n.includes(" & "))).toBe(true);
    expect(names.some((n) => /[^\x20-\x7e]/.test(n))).toBe(true);
    for (const n of names) expect(n).toBe(n.toUpperCase());
    expect(share(records, (r) => / (LLC|INC|CORP|CORPORATION|LTD|LP)$/.test(r.owner))).toBeGreaterThan(0.3);
  });

  it("puts real cities in their counties with their ZIPs", () => {
    const expectations: [string, string, string, RegExp][] = [
      ["ny", "BROOKLYN", "KINGS", /^112\d\d$/],
      ["ny", "BUFFALO", "ERIE", /^142\d\d$/],
      ["ny", "NEW YORK", "NEW YORK", /^100\d\d$/],
      ["ma", "BOSTON", "SUFFOLK", /^021\d\d$/],
      ["nj", "NEWARK", "ESSEX", /^071\d\d$/],
      ["ca", "SAN FRANCISCO", "SAN FRANCISCO", /^941\d\d$/],
      ["tx", "AUSTIN", "TRAVIS", /^787\d\d$/],
      ["dc", "WASHINGTON", "DISTRICT OF COLUMBIA", /^200\d\d$/],
    ];
    for (const [state, city, county, zip] of expectations) {
      const inCity = sample(state).filter((r) => r.address.city === city);
      expect(inCity.length, `${city} records`).toBeGreaterThan(0);
      for (const r of inCity) {
        expect(r.address.county).toBe(county);
        expect(r.address.zip).toMatch(zip);
      }
    }
    expect(sample("ny").some((r) => /^\d+-\d\d /.test(r.address.line_1))).toBe(true);
    expect(sample("dc").every((r) => / (NW|NE|SE|SW)$/.test(r.address.line_1))).toBe(true);
  });

  it("refuses states it does not know and counts it cannot honour", () => {
    expect(() => generateLicenses("zz", 10)).toThrow(/no demo data for state "zz"/i);
    expect(() => generateLicenses("NY", 10)).toThrow(/no demo data/i);
    expect(() => generateLicenses("ny", -1)).toThrow(RangeError);
    expect(() => generateLicenses("ny", 1.5)).toThrow(RangeError);
    expect([...generateLicenses("ny", 0)]).toEqual([]);
  });
});
