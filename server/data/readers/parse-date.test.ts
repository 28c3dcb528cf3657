import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readDate } from "./parse-date.ts";
import { RowProblem } from "../sources/source-adapter.ts";

describe("readDate", () => {
  it("reads each notation the agencies use as YYYY-MM-DD", () => {
    expect(readDate("01/30/2013", "d", ["us"])).toBe("2013-01-30");
    expect(readDate("1/5/2013", "d", ["us"])).toBe("2013-01-05");
    expect(readDate("46387.0", "d", ["excel"])).toBe("2026-12-31");
    expect(readDate(40862, "d", ["excel"])).toBe("2011-11-15");
    expect(readDate(new Date(Date.UTC(2025, 6, 1)), "d", ["excel"])).toBe("2025-07-01");
    expect(readDate("2016-01-14T00:00:00.000", "d", ["iso"])).toBe("2016-01-14");
    expect(readDate("Jul 01, 2019", "d", ["month-name"])).toBe("2019-07-01");
    expect(readDate("Sep 9,2024", "d", ["month-name"])).toBe("2024-09-09");
  });

  it("takes an empty cell as no date", () => {
    expect(readDate("", "d", ["us"])).toBeNull();
    expect(readDate("   ", "d", ["us"])).toBeNull();
    expect(readDate(null, "d", ["excel"])).toBeNull();
    expect(readDate(undefined, "d", ["excel"])).toBeNull();
  });

  it("refuses what is not a real day, naming the field", () => {
    for (const bad of ["02/30/2019", "13/01/2019", "2019-02-29", "Foo 01, 2019", "soon", "12"]) {
      expect(() => readDate(bad, "expiration date", ["us", "iso", "month-name"])).toThrow(
        new RowProblem("unreadable expiration date"),
      );
    }
    // A serial is only a date where the source writes serials.
    expect(() => readDate("46387", "issue date", ["us"])).toThrow("unreadable issue date");
    expect(() => readDate(12, "issue date", ["excel"])).toThrow("unreadable issue date");
  });

  it("reads any day from 1900-03-01 on the same in every notation", () => {
    const first = Date.UTC(1900, 2, 1);
    const last = Date.UTC(9999, 11, 31);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: (last - first) / 86_400_000 }), (days) => {
        const date = new Date(first + days * 86_400_000);
        const iso = date.toISOString().slice(0, 10);
        const [y, m, d] = iso.split("-");
        const serial = days + 61; // 1900-03-01 is Excel's day 61
        expect(readDate(`${m}/${d}/${y}`, "d", ["us"])).toBe(iso);
        expect(readDate(iso, "d", ["iso"])).toBe(iso);
        expect(readDate(serial, "d", ["excel"])).toBe(iso);
        expect(readDate(`${serial}.0`, "d", ["excel"])).toBe(iso);
        expect(readDate(date, "d", ["excel"])).toBe(iso);
      }),
    );
  });
});
