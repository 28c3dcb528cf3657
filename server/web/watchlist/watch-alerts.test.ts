import { describe, expect, it } from "vitest";
import type { WatchEntry } from "../../../src/contract/watchlist.ts";
import { licenseRecord } from "../../testing/fake-license-service.ts";
import { expiringDigest, type EmailPayload } from "./watch-alerts.ts";

const TODAY = "2026-11-22";
const HEAD = { entries: 1234, hash: "f".repeat(64) };
const watched = (license: string, expires: string): WatchEntry => ({
  state: "ny",
  license,
  added_at: "2026-11-01T00:00:00.000Z",
  checked_at: "2026-11-22T00:00:00.000Z",
  outcome: "found",
  record: licenseRecord("ny", license, {
    dates: { ny: { effective: null, expires, issued_original: null, issued_latest: null } },
  }),
  provenance: null,
  unseen: 0,
});
const mail = (entries: WatchEntry[], head: typeof HEAD | null) => {
  const alert = expiringDigest(entries, TODAY, "http://app.test", head);
  return alert && (JSON.parse(alert.payload) as EmailPayload);
};

describe("the daily digest and the record of checks", () => {
  it("carries the record's size and newest hash beside the licenses expiring", () => {
    const digest = mail([watched("1", "2026-12-01")], HEAD)!;
    expect(digest.subject).toBe("License Lookup: 1 watched license expires within 30 days");
    expect(digest.text).toContain("December 1, 2026 · NY 1 · BUSINESS 1");
    expect(digest.text).toContain(`Record of checks: 1,234 entries, newest hash ${"f".repeat(64)}`);
    expect(digest.html).toContain(`Record of checks: 1,234 entries, newest hash ${"f".repeat(64)}`);
  });

  it("goes out on a day nothing expires, so every day's hash reaches the mailbox", () => {
    const digest = mail([watched("1", "2028-01-01")], HEAD)!;
    expect(digest.subject).toBe("License Lookup: no watched license expires within 30 days");
    expect(digest.text).toContain("no license on the team's watchlist expires by December 22, 2026.");
    expect(digest.text).toContain(`newest hash ${"f".repeat(64)}`);
  });

  it("stays unsent on such a day without a record of checks, or with an empty one", () => {
    expect(mail([watched("1", "2028-01-01")], null)).toBeNull();
    expect(mail([], { entries: 0, hash: "0".repeat(64) })).toBeNull();
    expect(mail([watched("1", "2026-12-01")], null)!.text).not.toContain("Record of checks");
  });
});
