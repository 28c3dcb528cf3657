import { describe, expect, it } from "vitest";
import type { WatchChange, WatchEntry } from "../contract/watchlist.ts";
import { changeWords } from "./change-words.ts";
import { watchRow } from "./watch-rows.ts";

const TODAY = "2026-11-22";

function entry(outcome: WatchEntry["outcome"]): WatchEntry {
  return {
    state: "tx",
    license: "MB123",
    added_at: "2026-11-22T09:00:00.000Z",
    checked_at: null,
    outcome,
    record: null,
    provenance: null,
    unseen: 0,
  };
}

function change(field: WatchChange["field"], from: string | null, to: string | null): WatchChange {
  return {
    id: 1,
    state: "ny",
    license: "1",
    field,
    from,
    to,
    detected_at: "2026-11-22T09:00:00.000Z",
    link: "",
    seen: false,
  };
}

describe("a watched license without a record to judge", () => {
  it("gets the list check's words: not covered, not found when no longer listed, check when not checked yet", () => {
    const words = (outcome: WatchEntry["outcome"]) => {
      const { verdict, reason } = watchRow(entry(outcome), TODAY, null);
      return [verdict, reason];
    };
    expect(words("not covered")).toEqual([
      "not covered",
      "Texas is not covered: License Lookup has no Texas records for your team.",
    ]);
    expect(words("no longer listed")).toEqual([
      "not found",
      "No longer listed: the service no longer returns this license.",
    ]);
    expect(words("unchecked")).toEqual(["check", "Not checked yet."]);
  });

  it("names what the state's data covers beside a license no longer listed, as a not-found page does", () => {
    const source = {
      id: 7,
      agency: "Texas Alcoholic Beverage Commission",
      title: "Permits",
      coverage: "Houston only",
      file: null,
      sha256: null,
      as_of: "2026-10-01",
      as_of_from: "stated in the file",
      loaded_at: "2026-10-02 00:00:00.000000",
      records: 40,
    };
    const coverage = { state: "tx", name: "Texas", records: 40, sources: [source, { ...source, id: 3, records: 0 }] };
    expect(watchRow(entry("no longer listed"), TODAY, null, coverage).reason).toBe(
      "No longer listed: the service no longer returns this license. Our Texas data covers Houston only, as of October 1, 2026.",
    );
  });
});

describe("a change in words", () => {
  it("says when a value first appears or is no longer given, and when a license is listed again", () => {
    expect(changeWords(change("expires", null, "2027-06-30"), null)).toBe("Expiry date now given: June 30, 2027");
    expect(changeWords(change("address", "1 MAIN ST, ALBANY, NY 12207", null), null)).toBe(
      "Address no longer given (was 1 MAIN ST, ALBANY, NY 12207)",
    );
    expect(changeWords(change("business", "ACME TAVERN", "ACME TAP ROOM"), null)).toBe(
      "Business name changed from ACME TAVERN to ACME TAP ROOM",
    );
    expect(changeWords(change("listing", "no longer listed", "listed"), null)).toBe(
      "Listed again: the service returns this license again",
    );
    expect(changeWords(change("listing", "listed", "no longer listed"), null)).toBe(
      "No longer listed: the service no longer returns this license",
    );
  });
});
