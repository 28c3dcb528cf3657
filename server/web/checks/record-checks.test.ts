import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LicenseResponseSchema, ProvenanceResponseSchema } from "../../../src/contract/envelopes.ts";
import { loadSource } from "../../store/load-source.ts";
import { licenseFixture } from "../../testing/license-fixture.ts";
import { tempService, testSource } from "../../testing/temp-service.ts";
import type { StateDb } from "../../db/state-db.ts";
import { openAppState } from "../app-db.ts";
import { createServiceReader, type ServiceReader } from "../watchlist/service-reader.ts";
import { createChecksLog, sha256, type ChecksLog } from "./checks-log.ts";
import { recordChecks, recordWatchlistSeen } from "./record-checks.ts";

// 03:00 UTC on New Year's Day is still December 31 in Los Angeles: the day a license expiring then is last valid.
const NOW = new Date("2027-01-01T03:00:00Z");
const EXPIRES_NYE = {
  ny: { effective: "2020-01-01", expires: "2026-12-31", issued_original: null, issued_latest: null },
};
const maria = { email: "maria@example.com", name: "Maria Lopez", role: "member" as const };
const records = () => [
  licenseFixture({ license: "1268007", dates: EXPIRES_NYE }),
  licenseFixture({ license: "0012345", business: "ACME TAVERN" }),
];

let service: Awaited<ReturnType<typeof tempService>>;
let key: string;
let baseUrl: string;
let reader: ServiceReader;
let dir: string;
let db: StateDb | undefined;
let log: ChecksLog;
let clock: Date;
const now = () => clock;

beforeAll(async () => {
  service = await tempService({ ny: records() });
  key = (await service.keyFor(["ny"])).key;
  baseUrl = await service.app.listen({ port: 0, host: "127.0.0.1" });
  dir = mkdtempSync(join(tmpdir(), "record-checks-"));
});
afterAll(async () => {
  await db?.close();
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await db?.close();
  db = await openAppState({ file: join(dir, `app-${Date.now()}-${Math.random()}.sqlite`) });
  clock = NOW;
  log = createChecksLog(db, { appVersion: "test", now });
  reader = createServiceReader({ baseUrl, apiKey: key, requestsPerSecond: 1000 });
  await loadSource(service.db, testSource("ny"), records());
  await nextTurn();
});

const served = async (path: string) =>
  (await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } })).json() as Promise<unknown>;
const page = (license: string, fields: Partial<Parameters<typeof recordChecks>[0]> = {}) =>
  recordChecks({
    log,
    reader,
    user: maria,
    action: "license page",
    zone: "America/Los_Angeles",
    rows: [{ state: "ny", license }],
    now,
    ...fields,
  });

describe("recording what a page showed", () => {
  it("records the record and its source exactly as the service served them, judged on the clerk's date", async () => {
    const [id] = await page("1268007");
    const entry = (await log.get(id!))!;
    const record = LicenseResponseSchema.parse(await served("/v2/license/ny/1268007")).data;
    const provenance = ProvenanceResponseSchema.parse(await served("/v2/provenance/ny/1268007")).data;
    expect(JSON.parse(entry.record_json!)).toEqual(record);
    expect(JSON.parse(entry.provenance_json!)).toEqual(provenance);
    expect(entry).toMatchObject({
      action: "license page",
      at: NOW.toISOString(),
      zone: "America/Los_Angeles",
      user_email: "maria@example.com",
      user_name: "Maria Lopez",
      user_role: "member",
      state: "ny",
      license: "1268007",
      verdict: "valid",
      record_sha256: sha256(entry.record_json!),
      source_sha256: "sha256-of-test-licenses-ny",
      as_of: "2026-01-15",
    });
  });

  it("judges by UTC's date when the clerk's zone is not one, and records no zone", async () => {
    const [id] = await page("1268007", { zone: "Mars/Olympus_Mons" });
    expect(await log.get(id!)).toMatchObject({
      zone: null,
      // January 1 in UTC: past the expiry, which came after the data of January 15, 2026.
      verdict: "check",
      reason: expect.stringMatching(
        /^Expires December 31, 2026, after our data of January 15, 2026: it may have been renewed/,
      ),
    });
  });

  it("adds no entry when the same person sees the same unchanged record within the hour", async () => {
    const [first] = await page("1268007");
    clock = new Date(NOW.getTime() + 59 * 60_000);
    expect(await page("1268007")).toEqual([first]);
    expect(await page("1268007", { user: { ...maria, email: "ana@example.com" } })).not.toEqual([first]);
    clock = new Date(NOW.getTime() + 61 * 60_000);
    const [later] = await page("1268007");
    expect(later).toBeGreaterThan(first!);
    expect(await log.verify()).toMatchObject({ ok: true, entries: 3 });
  });

  it("keeps a receipt as it was after the license's record changes on re-import, and records the new record as a new check", async () => {
    const [before] = await page("0012345");
    const kept = (await log.get(before!))!;
    await loadSource(service.db, { ...testSource("ny"), sha256: "b".repeat(64), asOf: "2026-12-01" }, [
      ...records().filter((r) => r.license !== "0012345"),
      licenseFixture({ license: "0012345", business: "ACME TAVERN", status: "Surrendered" }),
    ]);
    await nextTurn();

    const [after] = await page("0012345");
    expect(after).not.toBe(before);
    expect(await log.get(before!)).toEqual(kept);
    expect(JSON.parse(kept.record_json!)).toMatchObject({ status: "active" });
    expect(await log.get(after!)).toMatchObject({
      verdict: "inactive",
      source_sha256: "b".repeat(64),
      as_of: "2026-12-01",
    });
    expect(JSON.parse((await log.get(after!))!.record_json!)).toMatchObject({ status: "Surrendered" });
  });
});

describe("recording a Verify list", () => {
  it("writes one entry per row, not found and not covered included, in one write", async () => {
    const ids = await recordChecks({
      log,
      reader,
      user: maria,
      action: "verify",
      zone: "America/New_York",
      rows: [
        { state: "ny", license: "0012345" },
        { state: "ny", license: "404" },
        { state: "ma", license: "LA-1" },
        { state: "zz", license: "1" },
        { state: "NY", license: "0012345" },
      ],
      now,
    });
    expect(ids).toEqual([1, 2, 3, null, 1]);
    const entries = (await log.list()).entries.reverse();
    expect(entries.map((e) => [e.action, e.license, e.verdict, e.detail])).toEqual([
      ["verify", "0012345", "valid", "row 1 of 5"],
      ["verify", "404", "not found", "row 2 of 5"],
      ["verify", "LA-1", "not covered", "row 3 of 5"],
    ]);
    expect(entries[1]).toMatchObject({
      reason: "Not in our New York data. This does not mean the business is unlicensed.",
      record_json: null,
      record_sha256: null,
    });
    expect(entries[2]!.reason).toBe(
      "Massachusetts is not covered: License Lookup has no Massachusetts records for your team.",
    );
    // One transaction: the three entries share one time.
    expect(new Set(entries.map((e) => e.at)).size).toBe(1);
  });
});

describe("recording a watchlist's changes marked seen", () => {
  it("records the record the watchlist holds, without reading the service", async () => {
    const record = LicenseResponseSchema.parse(await served("/v2/license/ny/1268007")).data!;
    const provenance = ProvenanceResponseSchema.parse(await served("/v2/provenance/ny/1268007")).data;
    const watched = {
      state: "ny" as const,
      license: "1268007",
      added_at: NOW.toISOString(),
      checked_at: NOW.toISOString(),
      unseen: 0,
    };
    const ids = await recordWatchlistSeen({
      log,
      user: maria,
      zone: "UTC",
      entries: [
        { ...watched, outcome: "found", record, provenance },
        {
          ...watched,
          license: "9",
          outcome: "no longer listed",
          record: { ...record, license: "9" },
          provenance: null,
        },
        { ...watched, license: "10", outcome: "unchecked", record: null, provenance: null },
      ],
      now,
    });
    expect(ids).toEqual([1, 2, null]);
    expect(await log.get(1)).toMatchObject({
      action: "watchlist",
      verdict: "check",
      record_json: JSON.stringify(record),
      as_of: "2026-01-15",
    });
    expect(await log.get(2)).toMatchObject({ verdict: "not found", detail: "no longer listed" });
  });
});
