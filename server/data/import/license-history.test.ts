import { describe, expect, it } from "vitest";
import { licenseFixture } from "../../testing/license-fixture.ts";
import { licenseHistories } from "./license-history.ts";
import type { ObservedIn, SourceInfo } from "./merge-records.ts";
import { newestFacts, type SourceAdapter, type SourceRecord } from "../sources/source-adapter.ts";

/** A roster adapter whose lists may state no status ("listed"), as the District's before 2012. */
const roster = { name: "test-roster", kind: "roster", fold: newestFacts, unstatedStatus: "listed" } as SourceAdapter;

/** A license as one list gives it. */
function listed(overrides: Parameters<typeof licenseFixture>[0] = {}): SourceRecord {
  const { dates, ...record } = licenseFixture(overrides);
  return { ...record, dates: dates[record.state]! };
}

/** Lists of one series, given as [id (load order), as-of date, the licenses it names]. */
function historiesOf(
  lists: [number, string, Record<string, SourceRecord>][],
  listOf: (id: number) => Pick<SourceInfo, "family" | "partial"> = () => ({ family: "test: list" }),
) {
  const sources: SourceInfo[] = lists.map(([id, asOf]) => ({
    id,
    adapter: roster.name,
    kind: "roster",
    as_of: asOf,
    ...listOf(id),
  }));
  const observations: ObservedIn[] = lists.flatMap(([id, asOf, named]) =>
    Object.entries(named).map(([license, facts], seq) => ({ sourceId: id, license, asOf, facts, seq })),
  );
  return licenseHistories(sources, observations, () => roster);
}

const events = (history: ReturnType<typeof historiesOf>, license: string) =>
  history.get(license)!.entries.map((e) => [e.event, e.since, e.date]);

describe("licenseHistories, for a series of complete lists", () => {
  it("puts the lists in the order of their dates, not of their loading", () => {
    const h = historiesOf([
      [1, "2016-08-04", { A: listed({ owner: "NEW OWNER LLC" }) }],
      [2, "2005-11-01", { A: listed() }],
    ]);
    expect(h.get("A")!.entries.map((e) => [e.event, e.since, e.date, e.changes.length])).toEqual([
      ["changed", "2005-11-01", "2016-08-04", 1],
      ["first_seen", null, "2005-11-01", 0],
    ]);
  });

  it("shows a gap: no longer listed, then listed again, with two runs of lists", () => {
    const h = historiesOf([
      [1, "2012-01-01", { A: listed() }],
      [2, "2013-01-01", { A: listed() }],
      [3, "2014-01-01", {}],
      [4, "2015-01-01", {}],
      [5, "2016-01-01", { A: listed() }],
    ]);
    expect(events(h, "A")).toEqual([
      ["listed_again", "2015-01-01", "2016-01-01"],
      ["no_longer_listed", "2013-01-01", "2014-01-01"],
      ["first_seen", null, "2012-01-01"],
    ]);
    expect(h.get("A")!.listings.map((l) => [l.from, l.to, l.lists])).toEqual([
      ["2012-01-01", "2013-01-01", 2],
      ["2016-01-01", "2016-01-01", 1],
    ]);
  });

  it("takes no change in case, punctuation or spacing for a change, nor a status a list does not state", () => {
    const h = historiesOf([
      [
        1,
        "2011-10-01",
        { A: listed({ business: "Tune Inn Inc.", status: "listed", address: { line_1: "331 Pennsylvania Ave SE" } }) },
      ],
      [
        2,
        "2012-12-13",
        { A: listed({ business: "TUNE INN INC", status: "active", address: { line_1: "331  PENNSYLVANIA AVE SE" } }) },
      ],
      [3, "2014-01-27", { A: listed({ business: "TUNE INN INC", status: "safekeeping" }) }],
    ]);
    expect(h.get("A")!.entries.map((e) => [e.event, e.date, e.changes])).toEqual([
      [
        "changed",
        "2014-01-27",
        [
          { field: "status", license_type: null, from: "active", to: "safekeeping" },
          {
            field: "address",
            license_type: null,
            from: "331  PENNSYLVANIA AVE SE, NEW YORK, NY 10001",
            to: "1 MAIN ST, NEW YORK, NY 10001",
          },
        ],
      ],
      ["first_seen", "2011-10-01", expect.not.arrayContaining([expect.objectContaining({ field: "status" })])],
    ]);
  });

  it("takes a field one list does not give for no change: an expiry, or an address's ZIP, a list leaves out", () => {
    const noDates = { effective: null, expires: null, issued_original: null, issued_latest: null };
    const h = historiesOf([
      [1, "2020-01-01", { A: listed() }],
      [2, "2021-01-01", { A: { ...listed({ address: { zip: "" } }), dates: noDates } }],
    ]);
    expect(events(h, "A")).toEqual([["first_seen", null, "2020-01-01"]]);
  });
});

describe("licenseHistories, for partial lists and lists of several families", () => {
  it("says nothing of a partial list silent on a license, and no change in a field it does not give", () => {
    const noAddress = { ...listed({ business: "DEAD RABBIT TAVERN" }), unstated: ["address" as const] };
    noAddress.address = { line_1: "", line_2: null, city: "", county: "", state: "NY", zip: "" };
    const h = historiesOf(
      [
        [1, "2016-01-14", { A: listed({ business: "DEAD RABBIT TAVERN" }), B: listed() }],
        [2, "2019-07-30", { A: noAddress }],
      ],
      (id) => ({ family: "test: list", partial: id === 2 ? 1 : 0 }),
    );
    expect(events(h, "A")).toEqual([["first_seen", null, "2016-01-14"]]);
    expect(h.get("A")!.listings.map((l) => [l.from, l.to, l.lists])).toEqual([["2016-01-14", "2019-07-30", 2]]);
    // B is not in the partial list of 2019: still listed, as of 2016.
    expect(events(h, "B")).toEqual([["first_seen", null, "2016-01-14"]]);
  });

  it("gives the runs of lists of two families in the order of their dates, whichever was loaded first", () => {
    const h = historiesOf(
      [
        [1, "2026-01-25", { A: listed() }],
        [2, "2025-10-22", { A: listed() }],
      ],
      (id) => ({ family: `test: list ${id}` }),
    );
    expect(h.get("A")!.listings.map((l) => [l.from, l.first_source])).toEqual([
      ["2025-10-22", 2],
      ["2026-01-25", 1],
    ]);
  });
});
