import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod/mini";
import { WatchWebhookSchema } from "../../../src/contract/watchlist.ts";
import { startMailReceiver, startWebhookReceiver } from "../../testing/alert-receivers.ts";
import { licenseRecord, startFakeService, type FakeService } from "../../testing/fake-license-service.ts";
import { DELIVERY_HEADER, SIGNATURE_HEADER, signature } from "./deliveries.ts";
import { migrateStateDb, openStateDb } from "../../db/state-db.ts";
import { createWatchlist, type WatchlistOptions, type WatchlistService } from "./watchlist.ts";
import { openWatchStore, WATCH_MIGRATIONS } from "./watch-store.ts";

const SECRET = "test-secret";
const NOW = new Date("2026-11-22T15:00:00Z");
// The day is fixed; the clock still runs, so that a retry's time comes.
const started = performance.now();
const clock = () => new Date(NOW.getTime() + Math.round(performance.now() - started));
const sinceNow = (iso: string | null | undefined) => Date.parse(iso ?? "") - NOW.getTime();
let dir: string;
let service: FakeService;
const open: WatchlistService[] = [];
const closers: (() => Promise<void>)[] = [];

/** The app's state in a SQLite file of the test's folder, on a connection of its own, as a restarted app opens it. */
async function appState() {
  const state = openStateDb({ file: join(dir, "app.sqlite") });
  await migrateStateDb(state, "app", WATCH_MIGRATIONS);
  closers.push(() => state.close());
  return state;
}

async function watchlist(options: Partial<WatchlistOptions> = {}) {
  const w = await createWatchlist({
    state: await appState(),
    service: { baseUrl: service.url, apiKey: "k", requestsPerSecond: 1000 },
    appUrl: "http://app.test",
    checkEveryMs: null,
    checkOnStart: false,
    retryBaseMs: 20,
    now: clock,
    ...options,
  });
  open.push(w);
  return w;
}

async function closeAll() {
  while (open.length) await open.pop()!.close();
}

function put(state: string, license: string, fields: Parameters<typeof licenseRecord>[2] = {}) {
  service.records.set(`${state}/${license}`, licenseRecord(state, license, fields));
}

async function checked(w: WatchlistService) {
  await w.check("check now");
  await w.settled();
  return await w.list();
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "watchlist-"));
  service = await startFakeService();
  closers.push(() => service.close());
});

afterEach(async () => {
  await closeAll();
  while (closers.length) await closers.pop()!();
  rmSync(dir, { recursive: true, force: true });
});

describe("adding licenses", () => {
  it("adds the rows it can and says, row by row, why the others were not added", async () => {
    put("ny", "0012345");
    put("ny", "0099999");
    put("ma", "LA-1");
    const w = await watchlist();
    await w.add([{ row: 1, state: "ny", license: "0099999" }]);
    const answer = await w.add([
      { row: 1, state: "New York", license: "0012345" },
      { row: 2, state: "XX", license: "1" },
      { row: 3, state: "NY", license: "" },
      { row: 4, state: "ny", license: "404" },
      { row: 5, state: "TX", license: "MB1" },
      { row: 6, state: "ny", license: "0099999" },
      { row: 7, state: "n.y.", license: "0012345" },
      { row: 8, state: "Massachusetts", license: "LA-1" },
    ]);
    expect(answer.rows.map((r) => [r.row, r.outcome, r.error])).toEqual([
      [1, "added", null],
      [2, "error", "unknown state “XX”: write it as NY or New York"],
      [3, "error", "no license number: a license number is needed to watch a license"],
      [4, "error", "no New York license “404” in our data: check the number as the state writes it"],
      [5, "error", "Texas is not covered: License Lookup has no Texas records for your team"],
      [6, "already watched", null],
      [7, "already watched", null],
      [8, "added", null],
    ]);
    expect(answer).toMatchObject({ added: 2, watched: 3 });
    const entry = await w.entry("ny", "0012345");
    expect(entry).toMatchObject({ outcome: "found", record: { business: "BUSINESS 0012345" } });
    expect(entry?.provenance?.source.agency).toBe("Test Agency");
  });

  it("works against a service with only the contract's routes, one license a request", async () => {
    await service.close();
    service = await startFakeService({ batch: false });
    closers.push(() => service.close());
    put("ny", "1");
    put("ny", "2");
    const w = await watchlist();
    const answer = await w.add([
      { row: 1, state: "ny", license: "1" },
      { row: 2, state: "ny", license: "2" },
      { row: 3, state: "ny", license: "3" },
    ]);
    expect(answer.rows.map((r) => r.outcome)).toEqual(["added", "added", "error"]);
    expect(await w.entry("ny", "1")).toMatchObject({ outcome: "found", provenance: null });
  });
});

describe("a check", () => {
  it("records each change with its time, keeps a license no longer listed, and forgets changes marked seen", async () => {
    put("ny", "1", { business: "ACME TAVERN" });
    put("ny", "2");
    put("ny", "3");
    const w = await watchlist();
    await w.add(["1", "2", "3"].map((license, i) => ({ row: i + 1, state: "ny", license })));
    expect((await checked(w)).changes).toEqual([]);

    put("ny", "1", {
      business: "ACME TAVERN",
      status: "Surrendered",
      dates: { ny: { effective: "2025-01-01", expires: "2028-01-31", issued_original: null, issued_latest: null } },
    });
    service.records.delete("ny/2");
    const list = await checked(w);
    expect(list.changes.map((c) => [c.license, c.field, c.from, c.to])).toEqual([
      ["2", "listing", "listed", "no longer listed"],
      ["1", "expires", "2027-01-31", "2028-01-31"],
      ["1", "status", "Active", "Surrendered"],
    ]);
    expect(list.changes[0]).toMatchObject({ link: "http://app.test/license/ny/2" });
    expect(sinceNow(list.changes[0]!.detected_at)).toBeGreaterThanOrEqual(0);
    expect(list.check).toMatchObject({ trigger: "check now", checked: 3, total: 3, changes: 3, error: null });
    const gone = list.entries.find((e) => e.license === "2")!;
    expect(gone).toMatchObject({ outcome: "no longer listed", unseen: 1, record: { license: "2" } });

    // The same answers again are no change.
    expect((await checked(w)).changes).toHaveLength(3);
    await w.markSeen(Math.max(...(await w.list()).changes.map((c) => c.id)));
    expect((await w.list()).changes).toEqual([]);
    expect(sinceNow((await w.list()).looked_at)).toBeGreaterThanOrEqual(0);
    put("ny", "2");
    expect((await checked(w)).changes.map((c) => [c.license, c.to])).toEqual([["2", "listed"]]);
  });

  it("says which licenses it could not check, and keeps what was last seen of them", async () => {
    put("ny", "1");
    const w = await watchlist();
    await w.add([{ row: 1, state: "ny", license: "1" }]);
    service.failNext = 2;
    const list = await checked(w);
    expect(list.check?.error).toBe("NY: the license service answered 503: down for a test");
    expect(list.changes).toEqual([]);
    expect(list.entries[0]).toMatchObject({ outcome: "found", record: { license: "1" } });
  });
});

describe("alerts", () => {
  async function watchThreeAndChangeTwo(options: Partial<WatchlistOptions>) {
    put("ny", "1", { business: "ACME TAVERN" });
    put("ny", "2", { business: "BLUE BAR" });
    put("ny", "3");
    const w = await watchlist(options);
    await w.add(["1", "2", "3"].map((license, i) => ({ row: i + 1, state: "ny", license })));
    put("ny", "1", {
      business: "ACME TAVERN",
      dates: { ny: { effective: "2025-01-01", expires: "2028-01-31", issued_original: null, issued_latest: null } },
    });
    service.records.delete("ny/2");
    return w;
  }

  it("posts one signed webhook with every change; a receiver that fails twice gets it once, the same delivery each time", async () => {
    const receiver = await startWebhookReceiver({ failFirst: 2 });
    closers.push(receiver.close);
    const w = await watchThreeAndChangeTwo({ webhook: { url: receiver.url, secret: SECRET } });
    await checked(w);
    for (let i = 0; i < 100 && receiver.delivered().length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    await w.settled();

    expect(receiver.received.map((r) => r.status)).toEqual([500, 500, 204]);
    const [hook] = receiver.delivered();
    expect(hook!.headers[SIGNATURE_HEADER]).toBe(signature(SECRET, hook!.body));
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    const body = z.parse(WatchWebhookSchema, JSON.parse(hook!.body));
    expect(hook!.headers[DELIVERY_HEADER]).toBe(body.delivery_id);
    expect(body.changes.map((c) => [c.license, c.field, c.from, c.to])).toEqual([
      ["1", "expires", "2027-01-31", "2028-01-31"],
      ["2", "listing", "listed", "no longer listed"],
    ]);
    expect(body.changes[1]).toMatchObject({ state: "ny", link: "http://app.test/license/ny/2" });
    expect(sinceNow(body.changes[1]!.detected_at)).toBeGreaterThanOrEqual(0);
    expect((await w.list()).alerts.undelivered).toEqual([]);

    // A later check that finds nothing new sends nothing.
    await checked(w);
    await new Promise((r) => setTimeout(r, 100));
    expect(receiver.received).toHaveLength(3);
  });

  it("keeps a delivery that could not be made across a restart, and makes it once after", async () => {
    const receiver = await startWebhookReceiver();
    const url = receiver.url;
    await receiver.close(); // nothing listens there: the first attempt fails
    const first = await watchThreeAndChangeTwo({ webhook: { url, secret: SECRET }, retryBaseMs: 3_600_000 });
    await checked(first);
    expect((await first.list()).alerts.undelivered).toMatchObject([
      { kind: "webhook", subject: "2 changes", attempts: 1, last_error: "fetch failed" },
    ]);
    await closeAll();

    // The receiver is back: the restarted app delivers what was waiting, once, without a new check.
    const again = await startWebhookReceiver();
    closers.push(again.close);
    const second = await watchlist({ webhook: { url: again.url, secret: SECRET } });
    await second.settled();
    expect(again.delivered()).toHaveLength(1);
    expect(JSON.parse(again.delivered()[0]!.body)).toMatchObject({ changes: [{ license: "1" }, { license: "2" }] });
    expect((await second.list()).alerts.undelivered).toEqual([]);
  });

  it("resumes a check a restart interrupted, without recording a change twice, and alerts once for all of it", async () => {
    const receiver = await startWebhookReceiver();
    closers.push(receiver.close);
    const numbers = Array.from({ length: 250 }, (_, i) => String(1000 + i));
    for (const n of numbers) put("ny", n);
    const slow = await watchlist({
      webhook: { url: receiver.url, secret: SECRET },
      service: { baseUrl: service.url, apiKey: "k", requestsPerSecond: 20 },
    });
    await slow.add(numbers.map((license, i) => ({ row: i + 1, state: "ny", license })));
    for (const n of numbers) put("ny", n, { status: "Cancelled" });
    await slow.check("check now");
    // Stopped once the first batch of 100 is written, with a batch or two left.
    while (((await slow.list()).check?.checked ?? 0) < 100) await new Promise((r) => setTimeout(r, 10));
    await closeAll();
    const interrupted = await openWatchStore(await appState()).unfinishedCheck();
    expect(interrupted?.checked).toBeLessThan(250);
    expect(receiver.received).toEqual([]);

    const resumed = await watchlist({ webhook: { url: receiver.url, secret: SECRET } });
    await resumed.settled();
    const list = await resumed.list();
    expect(list.check).toMatchObject({ trigger: "check now", checked: 250, total: 250, changes: 250 });
    expect(list.changes).toHaveLength(250);
    expect(new Set(list.changes.map((c) => c.license)).size).toBe(250);
    expect(receiver.delivered()).toHaveLength(1);
    expect(z.parse(WatchWebhookSchema, JSON.parse(receiver.delivered()[0]!.body)).changes).toHaveLength(250);
  });

  it("emails one digest per check with changes, each license a link, and an expiring digest once a day", async () => {
    const smtp = await startMailReceiver();
    closers.push(smtp.close);
    put("ma", "LA-9", {
      business: "SOON ENDS LLC",
      dates: { ma: { effective: null, expires: "2026-12-10", issued_original: null, issued_latest: null } },
    });
    const email = { smtpUrl: smtp.url, to: ["desk@example.com"], from: "License Lookup <ll@example.com>" };
    const w = await watchThreeAndChangeTwo({ email });
    await w.add([{ row: 1, state: "ma", license: "LA-9" }]);
    await checked(w);
    await checked(w);

    const subjects = smtp.mails.map((m) => m.subject);
    expect(subjects).toHaveLength(2);
    const digest = smtp.mails.find((m) => m.subject.includes("2 changes"))!;
    expect(digest.to).toBe("desk@example.com");
    expect(digest.text).toContain("NY 1 · ACME TAVERN");
    expect(digest.text).toContain("Expiry moved from January 31, 2027 to January 31, 2028");
    expect(digest.text).toContain("NY 2 · BLUE BAR");
    expect(digest.text).toContain("No longer listed");
    expect(digest.html).toContain('<a href="http://app.test/license/ny/2">NY 2 · BLUE BAR</a>');
    const expiring = smtp.mails.find((m) => m.subject.includes("expire"))!;
    expect(expiring.subject).toBe("License Lookup: 1 watched license expires within 30 days");
    expect(expiring.text).toContain("December 10, 2026 · MA LA-9 · SOON ENDS LLC");
    expect(expiring.html).toContain('href="http://app.test/license/ma/LA-9"');
  });
});
