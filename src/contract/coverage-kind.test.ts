import { describe, expect, it } from "vitest";
import { sourceKind, stateKind } from "./coverage-kind.ts";

// The coverage words the importers wrote for ../shared/data (npm run import -- --all), verbatim.
const WORDS = {
  tx: "not a license roster: TABC permit numbers named in the Comptroller's mixed-beverage tax filings (4,083 permits at locations in 173 counties, a statewide slice of the filings pulled 2025-10-22); a permit missing here may be licensed",
  wa: "licensing-activity notices 2024-04-26 to 2024-05-24 only: applications pending then, approvals and licenses discontinued; not a list of licenses in force",
  ca: "licenses whose status changed between 2023-05-09 and 2024-04-01: a license with no change in that time is not in it",
  co: "licenses approved 2018-06 to 2019-02 only (the LED's list of recently approved licenses; none listed for 2018-10)",
  nyApplications: "applications received 2019-10-25 to 2020-02-04, statewide: not yet licensed",
  pa: "Allegheny County only, premises whose address names Pittsburgh; licenses the PLCB lists as expired are not in it",
  phl: "Philadelphia County only; licenses the PLCB lists as expired are not in it",
  ky: "Fayette County only: the licenses ABC's Active Licenses report lists as active there",
  mi: "Detroit only: MLCC's active, conditional and escrowed licenses at premises in the city; no special (one-day) licenses",
  md: "Baltimore City only, license years 2014 and 2015 (the board re-numbers licenses each year)",
  nyc: "New York City on-premises liquor licenses only (the SLA's active list cut to BRONX, KINGS, NEW YORK, QUEENS, RICHMOND counties)",
  nyExtract:
    "active licenses of 57 classes, statewide, with no address (an extract of the SLA's list that left out licenses without a trade name)",
  ma: "active retail licenses (on- and off-premises: 17 kinds), statewide; no wholesalers, manufacturers or one-day licenses",
  nj: "retail licenses of the term ending 2021-06-30, statewide, issued by the municipalities (1,313 of them inactive pocket licenses); no wholesalers or manufacturers",
  ga: "the Department of Revenue's alcohol licenses, statewide, active and inactive (17,098 active, 18,287 inactive, 2 listed both; 4,491 for premises in other states: shippers and suppliers); the list gives no license type, county or dates",
  dc: "ABC licenses of every kind (retailers, wholesalers, manufacturers, caterers), District-wide; the list gives no status",
  demo: "made-up licenses for trying License Lookup: not real records of any agency",
};

describe("sourceKind", () => {
  it("reads tax filings, notices and what changed between two dates as not a license roster", () => {
    for (const words of [WORDS.tx, WORDS.wa, WORDS.ca, WORDS.co, WORDS.nyApplications])
      expect([words, sourceKind(words)]).toEqual([words, "not_a_roster"]);
  });

  it("reads a county's or a city's list as part of the state", () => {
    for (const words of [WORDS.pa, WORDS.phl, WORDS.ky, WORDS.mi, WORDS.md, WORDS.nyc])
      expect([words, sourceKind(words)]).toEqual([words, "part_of_state"]);
  });

  it("reads a statewide or District-wide list as a statewide roster", () => {
    for (const words of [WORDS.nyExtract, WORDS.ma, WORDS.nj, WORDS.ga, WORDS.dc])
      expect([words, sourceKind(words)]).toEqual([words, "statewide_roster"]);
  });

  it("claims nothing where the words do not tell", () => {
    expect(sourceKind(WORDS.demo)).toBeNull();
    expect(sourceKind("")).toBeNull();
    // "only" after the first clause is not a place: what a statewide list leaves out.
    expect(sourceKind("retail licenses, wholesalers only on request")).toBeNull();
  });
});

describe("stateKind", () => {
  const source = (coverage: string, records = 1) => ({ coverage, records });

  it("is the widest of the sources its records come from: a statewide list beside a city's is statewide", () => {
    expect(stateKind([source(WORDS.nyApplications), source(WORDS.nyExtract), source(WORDS.nyc)])).toBe(
      "statewide_roster",
    );
    expect(stateKind([source(WORDS.pa), source(WORDS.phl)])).toBe("part_of_state");
    expect(stateKind([source(WORDS.tx), source(WORDS.tx)])).toBe("not_a_roster");
  });

  it("leaves out a source none of whose records is served, unless none has any", () => {
    expect(stateKind([source(WORDS.nyExtract, 0), source(WORDS.nyc, 3261)])).toBe("part_of_state");
    expect(stateKind([source(WORDS.dc, 0), source(WORDS.dc, 0)])).toBe("statewide_roster");
  });

  it("is undefined where no source's words tell, so the service says nothing", () => {
    expect(stateKind([source(WORDS.demo)])).toBeUndefined();
    expect(stateKind([])).toBeUndefined();
  });
});
