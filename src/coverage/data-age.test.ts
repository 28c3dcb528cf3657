import { describe, expect, it } from "vitest";
import type { License } from "../contract/license.ts";
import { licenseVerdict } from "../contract/verdict.ts";
import { ageBand } from "./data-age.ts";

const today = "2026-11-22";

/** An in-force record with no expiry: its verdict turns on the age of its data alone. */
const ACTIVE: License = {
  object: "license",
  license: "1",
  business: "SOME BAR",
  owner: "SOME BAR LLC",
  phone: null,
  state: "xx",
  status: "active",
  updated_at: "2026-11-22 09:00:00.000000",
  address: { line_1: "1 MAIN ST", line_2: null, city: "TOWN", county: "", state: "XX", zip: "00000" },
  dates: { xx: { effective: null, expires: null, issued_original: null, issued_latest: null } },
  details: { class: null, description: null, type: "X" },
};

describe("ageBand", () => {
  it("ends 'under a year' on the day the verdict rule starts to say check", () => {
    const verdict = (asOf: string) => licenseVerdict(ACTIVE, { today, asOf, decoding: null }).verdict;
    expect([ageBand("2025-11-22", today), verdict("2025-11-22")]).toEqual(["under-1", "valid"]);
    expect([ageBand("2025-11-21", today), verdict("2025-11-21")]).toEqual(["1-3", "check"]);
  });

  it("puts each date in its band by calendar years before today", () => {
    expect(
      ["2026-11-30", "2023-11-22", "2023-11-21", "2021-11-22", "2021-11-21", "2005-11-01"].map((d) =>
        ageBand(d, today),
      ),
    ).toEqual(["under-1", "1-3", "3-5", "3-5", "over-5", "over-5"]);
    expect(ageBand(null, today)).toBe("undated");
    // A leap day's year ago is a day that does not exist, and still orders between its neighbours.
    expect(ageBand("2027-03-01", "2028-02-29")).toBe("under-1");
    expect(ageBand("2027-02-28", "2028-02-29")).toBe("1-3");
  });
});
