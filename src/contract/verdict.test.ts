import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { License } from "./license.ts";
import { DECODED_STATES, loadDecodingTable } from "./decoding/decode.ts";
import { licenseVerdict, VERDICTS, type VerdictContext } from "./verdict.ts";

const tables = new Map(await Promise.all(DECODED_STATES.map(async (s) => [s, await loadDecodingTable(s)] as const)));

/** The verdict with the license's state's table, as the app gives it. */
function verdictOf(license: License, context: Omit<VerdictContext, "decoding">) {
  return licenseVerdict(license, { ...context, decoding: tables.get(license.state) ?? null });
}

function record(state: string, status: string, dates: Partial<License["dates"][string]> = {}): License {
  return {
    object: "license",
    license: "1",
    business: "SOME BAR",
    owner: "SOME BAR LLC",
    phone: null,
    state,
    status,
    updated_at: "2026-11-22 09:00:00.000000",
    address: { line_1: "1 MAIN ST", line_2: null, city: "TOWN", county: "", state: state.toUpperCase(), zip: "00000" },
    dates: { [state]: { effective: null, expires: null, issued_original: null, issued_latest: null, ...dates } },
    details: { class: null, description: null, type: "X" },
  };
}

const today = "2026-11-22";
const fresh = { today, asOf: "2026-03-20" };

describe("licenseVerdict", () => {
  it("calls a license expired when its data, as of its date, lists the expiry as passed, whatever its status says", () => {
    expect(verdictOf(record("ny", "active", { expires: "2016-12-31" }), { today, asOf: "2017-01-14" })).toMatchObject({
      verdict: "expired",
      reason: "Expired on December 31, 2016; the state’s record still says “active”.",
    });
    expect(verdictOf(record("ca", "SLMSHD", { expires: "2024-01-31" }), fresh)).toMatchObject({
      verdict: "expired",
      reason: "Expired on January 31, 2024; the state’s record says “SLMSHD”.",
    });
  });

  it("asks a person to check an expiry that passed after the data's date: it may have been renewed", () => {
    // Pennsylvania R2638: data of June 9, 2025, its term ending October 31, 2025.
    expect(verdictOf(record("pa", "active", { expires: "2025-10-31" }), { today, asOf: "2025-06-09" })).toMatchObject({
      verdict: "check",
      reason:
        "Expires October 31, 2025, after our data of June 9, 2025: it may have been renewed. Confirm with the Pennsylvania Liquor Control Board.",
    });
    // New York 1268007: data of July 30, 2019, expiring December 31, 2020.
    expect(verdictOf(record("ny", "active", { expires: "2020-12-31" }), { today, asOf: "2019-07-30" }).reason).toBe(
      "Expires December 31, 2020, after our data of July 30, 2019: it may have been renewed. Confirm with the New York State Liquor Authority.",
    );
    expect(verdictOf(record("wy", "active", { expires: "2020-12-31" }), { today, asOf: null })).toMatchObject({
      verdict: "check",
      reason:
        "Expires December 31, 2020, and our data’s date is not given: it may have been renewed. Confirm with the agency.",
    });
  });

  it("keeps a license valid through its expiry day, and data of that day cannot know it lapsed", () => {
    expect(verdictOf(record("ma", "active", { expires: today }), fresh).verdict).toBe("valid");
    expect(verdictOf(record("ma", "active", { expires: "2026-11-21" }), { today, asOf: today }).verdict).toBe(
      "expired",
    );
    expect(verdictOf(record("ma", "active", { expires: "2026-11-21" }), { today, asOf: "2026-11-21" }).verdict).toBe(
      "check",
    );
  });

  it("calls a status that is not in force inactive, with the state's meaning as the reason", () => {
    // California 574903: cancelled in September 2023, its term ending February 2024.
    expect(verdictOf(record("ca", "cancelled", { expires: "2024-02-29" }), fresh)).toMatchObject({
      verdict: "inactive",
      reason: "Not in force: cancelled.",
    });
    expect(verdictOf(record("ca", "revpen", { expires: "2027-01-31" }), fresh).reason).toBe(
      "Not in force: revocation pending.",
    );
    expect(verdictOf(record("nj", "inactive", { expires: "2027-06-30" }), fresh).reason).toBe(
      "Not in force: inactive (a pocket license, not in use at any premises).",
    );
    // California's NREN is served as "expired", with no expiry date to pass.
    expect(verdictOf(record("ca", "expired"), fresh)).toMatchObject({
      verdict: "inactive",
      reason: "Not in force: not renewed.",
    });
  });

  it("calls an application pending: not yet licensed, while its data is at most a year old", () => {
    expect(verdictOf(record("ny", "pending"), { today, asOf: "2026-02-04" })).toMatchObject({
      verdict: "pending",
      reason: "Not yet licensed: application received, not yet decided.",
    });
    expect(verdictOf(record("ny", "pending"), { today, asOf: "2020-02-04" })).toMatchObject({
      verdict: "check",
      reason:
        "An application (application received, not yet decided) in our data of February 4, 2020, which is more than a year old: it may have been decided since. Confirm with the New York State Liquor Authority.",
    });
  });

  it("asks a person to check a status it cannot decode, never calling it valid", () => {
    expect(verdictOf(record("ca", "SLMSHD", { expires: "2027-01-01" }), fresh)).toMatchObject({
      verdict: "check",
      reason: "The state’s status “SLMSHD” is not one we can decode: confirm it with the agency.",
    });
    expect(verdictOf(record("ma", ""), fresh)).toMatchObject({
      verdict: "check",
      reason: "The state’s record gives no status: confirm it with the agency.",
    });
  });

  it("asks a person to check data more than a year old, even when in force", () => {
    expect(verdictOf(record("ca", "active", { expires: "2027-03-31" }), { today, asOf: "2024-04-01" })).toMatchObject({
      verdict: "check",
      reason: "In force in our data of April 1, 2024, which is more than a year old: confirm it with the agency.",
    });
    expect(verdictOf(record("ma", "active"), { today, asOf: "2025-11-22" }).verdict).toBe("valid");
    expect(verdictOf(record("ma", "active"), { today, asOf: "2025-11-21" }).verdict).toBe("check");
  });

  it("asks a person to check a record in force that takes effect only later", () => {
    expect(verdictOf(record("ma", "active", { effective: "2027-01-01" }), fresh)).toMatchObject({
      verdict: "check",
      reason: "The record says “active” but takes effect only on January 1, 2027.",
    });
  });

  it("calls an in-force, current, fresh record valid and says until when", () => {
    expect(verdictOf(record("ma", "Active", { expires: "2026-12-31" }), fresh)).toMatchObject({
      verdict: "valid",
      reason: "In force (active); expires December 31, 2026.",
    });
    expect(verdictOf(record("ma", "active"), fresh).reason).toBe(
      "In force (active); the state publishes no expiry date.",
    );
  });

  it("still works against a service that gives no data date, and says so", () => {
    expect(verdictOf(record("wy", "active", { expires: "2027-01-01" }), { today, asOf: null })).toMatchObject({
      verdict: "valid",
      reason: "In force (active); expires January 1, 2027. The data’s date is not given: confirm it is current.",
    });
  });

  it("reads a Texas tax record as check, never valid, however fresh: the reason sends the clerk to TABC", () => {
    // A permit the Comptroller's filings name, read the day the export was made.
    const taxRecord = record("tx", "tax record");
    for (const asOf of ["2026-11-22", "2026-01-25", null]) {
      expect(verdictOf(taxRecord, { today, asOf })).toMatchObject({
        verdict: "check",
        reason:
          "Named in the Comptroller's mixed-beverage tax filings (a tax record, not TABC's license status): confirm with TABC.",
      });
    }
    // A stale expiry the record never gives would still read expired: the rule stays one rule.
    expect(verdictOf(record("tx", "tax record", { expires: "2026-01-31" }), fresh).verdict).toBe("expired");
  });

  it("reads Washington's notices as pending, check or inactive, never valid", () => {
    const wa = (status: string) => verdictOf(record("wa", status, { effective: "2024-05-24" }), { today, asOf: today });
    expect(wa("new license applied for")).toMatchObject({
      verdict: "pending",
      reason: "Not yet licensed: application for a new license, in the WSLCB's notices of applications.",
    });
    expect(wa("assumption approved")).toMatchObject({
      verdict: "check",
      reason:
        "The WSLCB approved an assumption of this license (its taking over by a new holder) in its licensing-activity notices; these notices are not the Board's list of licenses in force: confirm the license with the WSLCB.",
    });
    expect(wa("discontinued")).toMatchObject({
      verdict: "inactive",
      reason: "Not in force: discontinued, in the WSLCB's notices of discontinued licenses.",
    });
    const statuses = tables.get("wa")!.statuses.flatMap((s) => s.values);
    expect(statuses.map((s) => wa(s).verdict).filter((v) => v === "valid")).toEqual([]);
  });

  it("uses only the fixed verdict words", () => {
    const statuses = ["active", "pending", "cancelled", "revpen", "nonsense", ""];
    const expiries = [null, "2016-12-31", "2030-01-01"];
    for (const status of statuses)
      for (const expires of expiries)
        for (const asOf of [null, "2014-01-01", "2026-11-01"])
          expect(VERDICTS).toContain(verdictOf(record("ca", status, { expires }), { today, asOf }).verdict);
  });

  describe("over any dates", () => {
    const day = fc
      .date({ min: new Date("2010-01-01T00:00:00Z"), max: new Date("2030-12-31T00:00:00Z"), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
    const statuses = fc.constantFrom("active", "pending", "cancelled", "nonsense");

    it("says expired only when the data itself, as of its date, lists the expiry as passed", () => {
      fc.assert(
        fc.property(statuses, day, day, day, (status, expires, asOf, today) => {
          fc.pre(asOf <= today);
          const { verdict } = verdictOf(record("ny", status, { expires }), { today, asOf });
          if (verdict === "expired") expect(expires < asOf).toBe(true);
          if (expires < today && status !== "cancelled") expect(verdict).toBe(expires < asOf ? "expired" : "check");
        }),
      );
    });

    it("says valid or pending only of data at most a year old, and valid never past its expiry", () => {
      fc.assert(
        fc.property(statuses, fc.option(day), day, day, (status, expires, asOf, today) => {
          fc.pre(asOf <= today);
          const { verdict } = verdictOf(record("ny", status, { expires }), { today, asOf });
          const yearOld = `${Number(today.slice(0, 4)) - 1}${today.slice(4)}`;
          if (verdict === "valid" || verdict === "pending") expect(asOf >= yearOld).toBe(true);
          if (verdict === "valid") expect(expires === null || expires >= today).toBe(true);
        }),
      );
    });
  });
});
