import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { GivenRow } from "./checks.ts";
import { loadDecodingTable } from "./decoding/decode.ts";
import type { Provenance } from "./envelopes.ts";
import type { License } from "./license.ts";
import { givenProblem, nameMatches, pageGiven, rowVerdict, sameNumberLines, type RowContext } from "./row-verdict.ts";
import { watchedRead, watchedVerdict } from "./watched-verdict.ts";
import { licenseVerdict } from "./verdict.ts";

const nj = await loadDecodingTable("nj");
const TODAY = "2026-11-28";
const context: RowContext = { today: TODAY, decoding: nj, covers: "retail licenses statewide, as of June 1, 2026" };

function record(license: string, business: string, fields: Partial<License> = {}): License {
  return {
    object: "license",
    license,
    business,
    owner: `${business} LLC`,
    phone: null,
    state: "nj",
    status: "active",
    updated_at: "2026-11-22 09:00:00.000000",
    address: { line_1: "12 MAIN ST", line_2: null, city: "TOWN", county: "", state: "NJ", zip: "07001" },
    dates: { nj: { effective: null, expires: "2027-06-30", issued_original: null, issued_latest: null } },
    details: { class: null, description: null, type: "33" },
    ...fields,
  };
}

const PROVENANCE: Provenance = {
  state: "nj",
  license: "0707-33-003-007",
  as_of: "2026-06-01",
  source: {
    id: 1,
    agency: "New Jersey Division of Alcoholic Beverage Control",
    title: "Retail licenses",
    coverage: "retail licenses statewide",
    file: null,
    sha256: null,
    as_of: "2026-06-01",
    as_of_from: "stated in the file",
    loaded_at: "2026-06-02 00:00:00.000000",
    records: 1,
  },
};

const TAVERN = record("0707-33-003-007", "TAVERN 292");
const given = (fields: Partial<GivenRow>): GivenRow => ({
  line: 11,
  state: "NJ",
  license: "",
  business: "",
  address: "",
  ...fields,
});
const number = (license: License | null, near: { number: string; record: License }[] = []) =>
  ({ kind: "number", record: license, provenance: license && PROVENANCE, near }) as const;

describe("rowVerdict", () => {
  it("gives the record's own verdict where the clerk gave only the number: the license page's, word for word", () => {
    const shown = rowVerdict(given({ license: "0707-33-003-007" }), number(TAVERN), context);
    const { verdict, reason } = licenseVerdict(TAVERN, { today: TODAY, asOf: "2026-06-01", decoding: nj });
    expect(shown).toEqual({
      verdict,
      reason,
      record: TAVERN,
      provenance: PROVENANCE,
      offered: [],
    });
    expect(shown.verdict).toBe("valid");
  });

  it("says check, naming both, where the number belongs to another business than the one given", () => {
    const shown = rowVerdict(given({ license: "0707-33-003-007", business: "White Horse" }), number(TAVERN), context);
    expect(shown).toMatchObject({
      verdict: "check",
      reason: "Number belongs to TAVERN 292, not White Horse. Its record: valid.",
      record: TAVERN,
    });
    expect(
      rowVerdict(given({ license: "0707-33-003-007", business: "Tavern 292 LLC" }), number(TAVERN), context).verdict,
    ).toBe("valid");
  });

  it("offers the near numbers the state holds, as check, and says not found with the coverage where none is held", () => {
    const meant = record("06199-GP-0608", "Tavern 13");
    const shown = rowVerdict(
      given({ license: "6199-GP-608" }),
      number(null, [{ number: "06199-GP-0608", record: meant }]),
      context,
    );
    expect(shown).toEqual({
      verdict: "check",
      reason: "Not found as written. Did you mean 06199-GP-0608 (Tavern 13)?",
      record: null,
      provenance: null,
      offered: ["06199-GP-0608"],
    });
    expect(rowVerdict(given({ license: "1" }), number(null), context)).toMatchObject({
      verdict: "not found",
      reason:
        "Not in our New Jersey data, which covers retail licenses statewide, as of June 1, 2026. This does not mean the business is unlicensed.",
      offered: [],
    });
  });

  it("matches a name-only row by name: one match its verdict, none not found, several a check naming each", () => {
    const row = given({ business: "Tavern 292" });
    expect(rowVerdict(row, { kind: "name", matches: [TAVERN], provenance: PROVENANCE }, context)).toMatchObject({
      verdict: "valid",
      reason: expect.stringMatching(/^Matched by name\. In force/),
      record: TAVERN,
    });
    expect(rowVerdict(row, { kind: "name", matches: [], provenance: null }, context)).toMatchObject({
      verdict: "not found",
      reason: expect.stringMatching(/^No license matches this name\. Not in our New Jersey data/),
    });
    const other = record("0707-33-003-008", "TAVERN 292", { address: { ...TAVERN.address, line_1: "9 ELM ST" } });
    expect(rowVerdict(row, { kind: "name", matches: [TAVERN, other], provenance: null }, context)).toMatchObject({
      verdict: "check",
      reason:
        "2 licenses match this name: 0707-33-003-007 (TAVERN 292, 12 MAIN ST); 0707-33-003-008 (TAVERN 292, 9 ELM ST). Add the number.",
      record: null,
    });
  });

  it("says every other line that gives the same number, after whatever else it says", () => {
    const shown = rowVerdict(given({ license: "0707-33-003-007" }), number(TAVERN), { ...context, alsoOn: [3, 14] });
    expect(shown.reason).toMatch(/^In force .*\. Also on line 3, 14\.$/);
  });

  it("says why a row cannot be asked about, a state not covered, and a read that failed", () => {
    expect(rowVerdict(given({ state: "%%%%" }), { kind: "unreadable", problem: "not a list row: …" }, context)).toEqual(
      {
        verdict: "check",
        reason: "Not a list row: ….",
        record: null,
        provenance: null,
        offered: [],
      },
    );
    expect(rowVerdict(given({ state: "Florida", license: "1" }), { kind: "not covered" }, context).reason).toBe(
      "Florida is not covered: License Lookup has no Florida records for your team.",
    );
    expect(rowVerdict(given({ license: "1" }), { kind: "failed", words: "the service is down" }, context).reason).toBe(
      "Not checked: the service is down. Verify the list again to retry this row.",
    );
  });

  it("gives a watched license the verdict its page would, and one no longer listed its last record", () => {
    const watched = {
      state: "nj" as const,
      license: TAVERN.license,
      added_at: "2026-11-01T00:00:00.000Z",
      checked_at: "2026-11-27T00:00:00.000Z",
      unseen: 1,
    };
    const page = pageGiven("nj", TAVERN.license);
    const found = { ...watched, outcome: "found" as const, record: TAVERN, provenance: PROVENANCE };
    expect(rowVerdict(page, watchedRead(found), context)).toMatchObject({ verdict: "valid", record: TAVERN });
    const gone = { ...found, outcome: "no longer listed" as const };
    expect(rowVerdict(page, watchedRead(gone), context)).toMatchObject({
      verdict: "not found",
      reason:
        "No longer listed: the service no longer returns this license (last seen as TAVERN 292, status active, expiring June 30, 2027). Our New Jersey data covers retail licenses statewide, as of June 1, 2026.",
      record: TAVERN,
    });
    const unchecked = { ...watched, outcome: "unchecked" as const, record: null, provenance: null };
    expect(rowVerdict(page, watchedRead(unchecked), context)).toMatchObject({
      verdict: "check",
      reason: "Not checked yet.",
    });
    // The watchlist page decides by watchedVerdict, which loads no name matching: the same answer, every outcome.
    const notCovered = { ...watched, outcome: "not covered" as const, record: null, provenance: null };
    for (const entry of [found, gone, unchecked, notCovered]) {
      expect(watchedVerdict(entry, context), entry.outcome).toEqual(rowVerdict(page, watchedRead(entry), context));
    }
  });

  it("never says valid of a number whose record names another business than the one given", () => {
    const name = fc.stringMatching(/^[A-Z][a-z]{2,8}( [A-Z][a-z]{2,8}){0,2}$/);
    fc.assert(
      fc.property(name, name, (theirs, given_) => {
        const shown = rowVerdict(
          given({ license: "0707-33-003-007", business: given_ }),
          number(record("0707-33-003-007", theirs)),
          context,
        );
        const same = given_.toLowerCase() === theirs.toLowerCase();
        if (shown.verdict === "valid") expect(shown.reason).not.toMatch(/^Number belongs/);
        if (same) expect(shown.verdict).toBe("valid");
        if (shown.verdict === "check") expect(shown.reason).toContain(`not ${given_}`);
      }),
    );
  });
});

describe("givenProblem", () => {
  it("says what is wrong with a row as given, the list's reading first", () => {
    expect(givenProblem(given({ state: "%%%%" }))).toBe(
      "not a list row: expected a state and a license number, separated by a comma or a tab",
    );
    expect(givenProblem(given({ state: "XX", license: "1" }))).toBe(
      "unknown state “XX”: write a code such as NY or a name such as New York",
    );
    expect(givenProblem(given({ state: "", license: "1" }))).toBe("no state");
    expect(givenProblem(given({}))).toBe("no license number and no business name");
    expect(givenProblem(given({ license: "1" }), ["too many columns"])).toBe(
      "too many columns: expected state, license number, business name, address",
    );
    expect(givenProblem(given({ license: "1" }))).toBeNull();
    expect(givenProblem(given({ business: "Tavern 292" }))).toBeNull();
  });
});

describe("sameNumberLines", () => {
  it("names, for each row, the other lines giving the same state and number, the state however written", () => {
    const rows = [
      given({ line: 2, license: "1" }),
      given({ line: 4, state: "New Jersey", license: "1" }),
      given({ line: 5, license: "2" }),
      given({ line: 7, state: "nj", license: "1" }),
      given({ line: 8, business: "Tavern 292" }),
    ].map((g) => ({ given: g, problem: givenProblem(g) }));
    expect(sameNumberLines(rows)).toEqual([[4, 7], [2, 7], [], [2, 4], []]);
  });
});

describe("nameMatches", () => {
  it("keeps the records that bear the name and, when given, the street", () => {
    const elm = record("2", "TAVERN 292", { address: { ...TAVERN.address, line_1: "9 ELM ST" } });
    expect(nameMatches(given({ business: "Tavern 292" }), [TAVERN, elm, record("3", "BLUE BAR")])).toEqual([
      TAVERN,
      elm,
    ]);
    expect(nameMatches(given({ business: "Tavern 292", address: "9 Elm St, Town" }), [TAVERN, elm])).toEqual([elm]);
  });
});
