import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { GivenRow, RecordRow } from "../../../src/contract/checks.ts";
import type { License } from "../../../src/contract/license.ts";
import { LicenseResponseSchema, ProvenanceResponseSchema } from "../../../src/contract/envelopes.ts";
import { loadSource } from "../../store/load-source.ts";
import { licenseFixture } from "../../testing/license-fixture.ts";
import { tempService, testSource } from "../../testing/temp-service.ts";
import type { StateDb } from "../../db/state-db.ts";
import { openAppState } from "../app-db.ts";
import { createServiceReader, type ServiceReader } from "../watchlist/service-reader.ts";
import { parseListText } from "../../../src/shared/list-input.ts";
import { recordedRows, verifyList, type RowResult } from "../../../src/verify/verify-list.ts";
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
  licenseFixture({ license: "2000001", business: "UNION SQUARE CAFE", address: { line_1: "21 E 16TH ST" } }),
  licenseFixture({ license: "2000002", business: "UNION SQUARE CAFE", address: { line_1: "101 E 19TH ST" } }),
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
  // The day where the clerk is (Los Angeles) at NOW: the page's `today`, as the server works it out.
  const TODAY = "2026-12-31";
  const verify = (rows: RecordRow[], fields: Partial<Parameters<typeof recordChecks>[0]> = {}) =>
    recordChecks({ log, reader, user: maria, action: "verify", zone: "America/Los_Angeles", rows, now, ...fields });
  const row = (line: number, state: string, license: string, business = "", address = ""): RecordRow => ({
    line,
    state,
    license,
    business,
    address,
  });

  /** The Verify page's own run of `text`, its browser's requests sent to the service with the team's key. */
  async function pageRun(text: string): Promise<RowResult[]> {
    const list = parseListText(text, { rows: 100, use: "verified" });
    if ("error" in list) throw new Error(list.error);
    const realFetch = globalThis.fetch;
    vi.stubGlobal("fetch", (path: string, init: RequestInit = {}) =>
      realFetch(`${baseUrl}${path}`, { ...init, headers: { ...init.headers, authorization: `Bearer ${key}` } }),
    );
    try {
      const coverage = (await (await fetch("/v2/states")).json()) as { data: [] };
      return await verifyList(list.rows, { today: TODAY, coverage: coverage.data, onProgress: () => {} });
    } finally {
      vi.unstubAllGlobals();
    }
  }
  afterEach(() => vi.unstubAllGlobals());

  it("keeps, row by row, the verdict, the reason and the line the Verify page showed, and what the clerk gave", async () => {
    const text = [
      "State,License number,Business name,Address",
      "NY,0012345,White Horse",
      "",
      "NY,12345",
      "%%%%",
      "NY,0012345",
      "NY,,Acme Tavern",
      "NY,,Union Square Cafe",
      "NY,,Union Square Cafe,101 E 19th St",
      "NY,404",
      "Massachusetts,LA-1",
      "XX,1",
    ].join("\n");
    const shown = await pageRun(text);
    const ids = await verify(recordedRows(shown));
    expect(ids).toHaveLength(shown.length);
    const entries = await Promise.all(ids.map((id) => log.get(id!)));
    // What each entry holds is what its row showed: one function decided both.
    for (const [i, r] of shown.entries()) {
      const entry = entries[i]!;
      expect([entry.verdict, entry.reason, JSON.parse(entry.given_json!)], `line ${r.given.line}`).toEqual([
        r.verdict,
        r.reason,
        r.given,
      ]);
      expect(entry.record_json === null ? "" : (JSON.parse(entry.record_json) as License).license).toBe(r.matched);
    }
    // And what they showed, by the paste's own lines.
    const line = (json: string | null) => (JSON.parse(json!) as GivenRow).line;
    expect(entries.map((e) => [line(e!.given_json), e!.state, e!.license, e!.verdict, e!.reason])).toEqual([
      [
        2,
        "ny",
        "0012345",
        "check",
        "Number belongs to ACME TAVERN, not White Horse. Its record: valid. Also on line 6.",
      ],
      [4, "ny", "12345", "check", "Not found as written. Did you mean 0012345 (ACME TAVERN)?"],
      [5, null, null, "check", "Not a list row: expected a state and a license number, separated by a comma or a tab."],
      [6, "ny", "0012345", "valid", expect.stringMatching(/^In force .* Also on line 2\.$/)],
      [7, "ny", "0012345", "valid", expect.stringMatching(/^Matched by name\. In force/)],
      [
        8,
        "ny",
        null,
        "check",
        expect.stringMatching(/^2 licenses match this name: 2000001 \(UNION SQUARE CAFE, 21 E 16TH ST\)/),
      ],
      [9, "ny", "2000002", "valid", expect.stringMatching(/^Matched by name\./)],
      [
        10,
        "ny",
        "404",
        "not found",
        expect.stringMatching(
          /^Not in our New York data, which covers the licenses a test made, as of January 15, 2026\./,
        ),
      ],
      [
        11,
        "ma",
        "LA-1",
        "not covered",
        "Massachusetts is not covered: License Lookup has no Massachusetts records for your team.",
      ],
      [12, null, "1", "check", "Unknown state “XX”: write a code such as NY or a name such as New York."],
    ]);
    expect(entries[0]).toMatchObject({
      action: "verify",
      detail: null,
      record_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    // One transaction: the entries share one time, and the chain holds.
    expect(new Set(entries.map((e) => e!.at)).size).toBe(1);
    expect(await log.verify()).toMatchObject({ ok: true, entries: shown.length });
  });

  it("reads a name-only row's matched number, and searches the name itself where that record does not bear it", async () => {
    const [honest, claimed] = await verify([
      { ...row(1, "NY", "", "Acme Tavern"), matched: "0012345" },
      // The number of another business: the record it reads is held to the name, and the name searched instead.
      { ...row(2, "NY", "", "Acme Tavern"), matched: "1268007" },
    ]);
    expect(await log.get(honest!)).toMatchObject({ license: "0012345", verdict: "valid" });
    expect(await log.get(claimed!)).toMatchObject({
      license: "0012345",
      verdict: "valid",
      reason: expect.stringMatching(/^Matched by name\./),
    });
  });

  it("records an ambiguous or unmatched name row as the page showed it, with no license and no record", async () => {
    const [several, none] = await verify([row(1, "NY", "", "Union Square Cafe"), row(2, "NY", "", "Nobody Here")]);
    expect(await log.get(several!)).toMatchObject({ state: "ny", license: null, verdict: "check", record_json: null });
    expect(await log.get(none!)).toMatchObject({
      license: null,
      verdict: "not found",
      reason: expect.stringMatching(/^No license matches this name\. Not in our New York data/),
    });
  });

  it("adds nothing for the same run again within the hour, and an entry for a row shown on another line", async () => {
    const rows = [row(1, "NY", "0012345"), row(2, "ny", "404")];
    const first = await verify(rows);
    clock = new Date(NOW.getTime() + 30 * 60_000);
    expect(await verify(rows)).toEqual(first);
    const [moved] = await verify([row(5, "NY", "0012345")]);
    expect(first).not.toContain(moved);
    expect(await log.verify()).toMatchObject({ ok: true, entries: 3 });
  });

  it("refuses nothing a clerk may paste: a long state name, an empty number, a reading problem", async () => {
    const [id] = await verify([{ ...row(3, "New York", "0012345,x", "", ""), read: ["too many columns"] }]);
    expect(await log.get(id!)).toMatchObject({
      state: "ny",
      verdict: "check",
      reason: "Too many columns: expected state, license number, business name, address.",
      record_json: null,
    });
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
      reader,
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
    // As the watchlist shows it: what it last saw, and what the state's data covers.
    expect(await log.get(2)).toMatchObject({
      verdict: "not found",
      reason:
        "No longer listed: the service no longer returns this license (last seen as TEST TAVERN, status active, " +
        "expiring December 31, 2026). Our New York data covers the licenses a test made, as of January 15, 2026.",
      detail: "no longer listed",
      given_json: null,
    });
  });
});
