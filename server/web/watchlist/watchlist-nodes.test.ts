import { spawn } from "node:child_process";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod/mini";
import { WatchWebhookSchema } from "../../../src/contract/watchlist.ts";
import { migrateStateDb, openStateDb } from "../../db/state-db.ts";
import { startWebhookReceiver } from "../../testing/alert-receivers.ts";
import { licenseRecord, startFakeService, type FakeService } from "../../testing/fake-license-service.ts";
import { freshPostgresUrl } from "../../testing/state-backends.ts";
import { createWatchlist, type WatchlistOptions, type WatchlistService } from "./watchlist.ts";
import { openWatchStore, WATCH_MIGRATIONS } from "./watch-store.ts";

const SECRET = "test-secret";
// Short, so that a node's death is made good within seconds.
const LEASE_SECONDS = 2;
const KILLED_LEASE_SECONDS = 4;
const closers: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/** One app node: a pool of its own on the shared database, and its own pg-boss. */
async function appNode(url: string, service: FakeService, options: Partial<WatchlistOptions> = {}) {
  const state = openStateDb({ url, poolSize: 6 });
  closers.push(() => state.close());
  await migrateStateDb(state, "app", WATCH_MIGRATIONS);
  const node = await createWatchlist({
    state,
    jobLeaseSeconds: LEASE_SECONDS,
    service: { baseUrl: service.url, apiKey: "k", requestsPerSecond: 1000 },
    appUrl: "http://app.test",
    checkEveryMs: null,
    checkOnStart: false,
    retryBaseMs: 200,
    ...options,
  });
  closers.push(() => node.close());
  return node;
}

async function until<T>(what: string, probe: () => Promise<T>, timeoutMs = 20_000): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await sleep(50);
  }
}

const finished = (node: WatchlistService) =>
  until("the check to finish", async () => {
    const check = await node.currentCheck();
    return check?.finished_at ? check : null;
  });

async function setUp(licenses: readonly string[]) {
  const url = await freshPostgresUrl("watch_nodes");
  const service = await startFakeService();
  closers.push(() => service.close());
  const receiver = await startWebhookReceiver({ failFirst: 1 });
  closers.push(() => receiver.close());
  for (const n of licenses) service.records.set(`ny/${n}`, licenseRecord("ny", n));
  return { url, service, receiver, webhook: { url: receiver.url, secret: SECRET } };
}

describe("the watchlist on two app nodes over PostgreSQL", () => {
  it("shares the list, starts one check for 'Check now' pressed on both, and alerts once with both sending", async () => {
    const { url, service, receiver, webhook } = await setUp(["1", "2", "3"]);
    const a = await appNode(url, service, { webhook });
    const b = await appNode(url, service, { webhook });

    await a.add(["1", "2", "3"].map((license, i) => ({ row: i + 1, state: "ny", license })));
    expect((await b.list()).entries.map((e) => e.license)).toEqual(["1", "2", "3"]);
    await b.remove("ny", "3");
    expect((await a.list()).entries.map((e) => e.license)).toEqual(["1", "2"]);

    service.records.set("ny/1", licenseRecord("ny", "1", { status: "Surrendered" }));
    const [onA, onB] = await Promise.all([a.check("check now"), b.check("check now")]);
    expect(onA.id).toBe(onB.id);
    expect(await finished(b)).toMatchObject({ id: onA.id, checked: 2, total: 2, changes: 1, error: null });

    // The receiver fails the first post: the retry comes from whichever node, and the change arrives once.
    await until("the webhook", async () => receiver.delivered().length > 0);
    await sleep(1500);
    expect(receiver.received.map((r) => r.status)).toEqual([500, 204]);
    const body = z.parse(WatchWebhookSchema, JSON.parse(receiver.delivered()[0]!.body));
    expect(body.changes.map((c) => [c.license, c.field, c.to])).toEqual([["1", "status", "Surrendered"]]);
    expect((await a.list()).alerts.undelivered).toEqual([]);
    expect((await b.list()).changes).toHaveLength(1);
  });

  it("finishes a check whose node was killed mid-way on the other node after the lease, each change alerted once", async () => {
    const numbers = Array.from({ length: 250 }, (_, i) => String(1000 + i));
    const { url, service, receiver, webhook } = await setUp(numbers);
    // What the nodes share, read directly: node B starts only once A is gone, so that A alone ran the check.
    const shared = openStateDb({ url, poolSize: 2 });
    closers.push(() => shared.close());
    await migrateStateDb(shared, "app", WATCH_MIGRATIONS);
    const store = openWatchStore(shared);
    const answers = numbers.map((n) => ({
      state: "ny",
      license: n,
      outcome: "found" as const,
      record: licenseRecord("ny", n),
      provenance: null,
    }));
    await store.add(answers, new Date().toISOString());
    for (const n of numbers) service.records.set(`ny/${n}`, licenseRecord("ny", n, { status: "Cancelled" }));

    // Node A, a process of its own, reads slowly (a request a second, two a batch): it is killed once its first
    // batch is written, well within the first slice it holds (half its lease of 4 s).
    const here = (file: string) => JSON.stringify(join(import.meta.dirname, file));
    const script = `
      import { migrateStateDb, openStateDb } from ${here("../../db/state-db.ts")};
      import { createWatchlist } from ${here("watchlist.ts")};
      import { WATCH_MIGRATIONS } from ${here("watch-store.ts")};
      const state = openStateDb({ url: ${JSON.stringify(url)}, poolSize: 4 });
      await migrateStateDb(state, "app", WATCH_MIGRATIONS);
      const w = await createWatchlist({
        state, jobLeaseSeconds: ${KILLED_LEASE_SECONDS}, checkEveryMs: null, checkOnStart: false, appUrl: "http://app.test",
        service: { baseUrl: ${JSON.stringify(service.url)}, apiKey: "k", requestsPerSecond: 1 },
        webhook: ${JSON.stringify(webhook)},
      });
      console.log(JSON.stringify(await w.check("check now")));`;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "--eval", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    closers.push(async () => void child.kill("SIGKILL"));
    let printed = "";
    child.stdout.on("data", (chunk: Buffer) => (printed += chunk.toString()));
    const started = await until("node A's check", async () => (printed.includes("\n") ? printed : null));
    const { id } = JSON.parse(started) as { id: number };
    const partway = await until("node A's first batch", async () => {
      const check = await store.check(id);
      return check && check.checked > 0 ? check : null;
    });
    expect(partway).toMatchObject({ finished_at: null });
    child.kill("SIGKILL");
    const killedAt = Date.now();

    // Node B resumes the unfinished check as it starts, but only once node A's hold on it has run out.
    const b = await appNode(url, service, { webhook });
    const check = await finished(b);
    // Its job stayed node A's until its lease ran out, some 3 s after the kill.
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(2000);
    expect(check).toMatchObject({ id, trigger: "check now", checked: 250, total: 250, changes: 250 });
    const list = await b.list();
    expect(list.changes).toHaveLength(250);
    expect(new Set(list.changes.map((c) => c.license)).size).toBe(250);
    await until("the webhook", async () => receiver.delivered().length > 0);
    await sleep(1500);
    expect(receiver.delivered()).toHaveLength(1);
    expect(z.parse(WatchWebhookSchema, JSON.parse(receiver.delivered()[0]!.body)).changes).toHaveLength(250);
  });

  it("hands a check over at once when its node stops cleanly mid-way", async () => {
    const numbers = Array.from({ length: 250 }, (_, i) => String(1000 + i));
    const { url, service, receiver, webhook } = await setUp(numbers);
    const a = await appNode(url, service, {
      webhook,
      service: { baseUrl: service.url, apiKey: "k", requestsPerSecond: 2 },
    });
    await a.add(numbers.map((license, i) => ({ row: i + 1, state: "ny", license })));
    for (const n of numbers) service.records.set(`ny/${n}`, licenseRecord("ny", n, { status: "Cancelled" }));
    const { id } = await a.check("check now");
    await until("node A's first batch", async () => ((await a.currentCheck())?.checked ?? 0) > 0);
    // Node B comes up while A holds the check (so it cannot have taken it first), and A stops.
    const b = await appNode(url, service, { webhook });
    await a.close();
    const stoppedAt = Date.now();

    expect(await finished(b)).toMatchObject({ id, checked: 250, total: 250, changes: 250 });
    // Well before a lease would have run out: the stopping node gave its job back.
    expect(Date.now() - stoppedAt).toBeLessThan(LEASE_SECONDS * 1000 + 1500);
    await until("the webhook", async () => receiver.delivered().length > 0);
    await sleep(1000);
    expect(receiver.delivered()).toHaveLength(1);
  });

  it("runs the scheduled check once a period, whichever node's timer fires", async () => {
    const { url, service } = await setUp(["1"]);
    const every = 1000;
    const a = await appNode(url, service, { checkEveryMs: every });
    const b = await appNode(url, service, { checkEveryMs: every });
    await a.add([{ row: 1, state: "ny", license: "1" }]);
    // Both nodes' timers are on one grid of periods (a slot may pass between their starts).
    const [onA, onB] = [Date.parse((await a.list()).next_check_at!), Date.parse((await b.list()).next_check_at!)];
    expect((onB - onA) % every).toBe(0);
    const first = Math.max(onA, onB);

    // Three periods with both nodes up: a check a period, not one a node.
    await sleep(first + 2 * every + every / 2 - Date.now());
    const state = openStateDb({ url, poolSize: 1 });
    closers.push(() => state.close());
    const checks = await state.db
      .selectFrom("checks")
      .select("started_at")
      .where("trigger", "=", "schedule")
      .where("started_at", ">=", new Date(first).toISOString())
      .$castTo<{ started_at: string }>()
      .execute();
    const periods = Math.floor((Date.now() - first) / every) + 1;
    expect(checks.length).toBeGreaterThanOrEqual(3);
    expect(checks.length).toBeLessThanOrEqual(periods);
    const slots = checks.map((c) => Math.floor((Date.parse(c.started_at) - first) / every));
    expect(new Set(slots).size).toBe(checks.length);
  });
});
