import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { migrateStateDb, openStateDb, type Backend, type StateDb } from "../../db/state-db.ts";
import { licenseRecord } from "../../testing/fake-license-service.ts";
import { BACKENDS, freshPostgresUrl } from "../../testing/state-backends.ts";
import { openWatchStore, WATCH_MIGRATIONS, type Answer } from "./watch-store.ts";

const AT = "2026-11-26T12:00:00.000Z";
const later = (ms: number) => new Date(Date.parse(AT) + ms).toISOString();
const found = (license: string, business = `BUSINESS ${license}`): Answer => ({
  state: "ny",
  license,
  outcome: "found",
  record: licenseRecord("ny", license, { business }),
  provenance: null,
});

describe.each(BACKENDS)("the watchlist's store shared by two app nodes on %s", (backend) => {
  const opened: StateDb[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    while (opened.length) await opened.pop()!.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Two nodes on one database: two pools on PostgreSQL. SQLite is one process's: its two "nodes" share its one
   * connection and Kysely instance, which takes turns (two would wait on each other's write lock, or nest BEGINs).
   */
  async function twoNodes(kind: Backend) {
    let a: StateDb;
    let b: StateDb;
    if (kind === "postgres") {
      const url = await freshPostgresUrl("watch_store");
      a = openStateDb({ url, poolSize: 4 });
      b = openStateDb({ url, poolSize: 4 });
      opened.push(a, b);
      // Both start at once: the migrator's lock lets one bring the schema up, the other finds it done.
      const ran = await Promise.all([
        migrateStateDb(a, "app", WATCH_MIGRATIONS),
        migrateStateDb(b, "app", WATCH_MIGRATIONS),
      ]);
      expect(ran.flat().sort()).toEqual(Object.keys(WATCH_MIGRATIONS).sort());
    } else {
      const dir = mkdtempSync(join(tmpdir(), "watch-store-"));
      dirs.push(dir);
      a = openStateDb({ file: join(dir, "app.sqlite") });
      b = a;
      opened.push(a);
      await migrateStateDb(a, "app", WATCH_MIGRATIONS);
    }
    return [openWatchStore(a), openWatchStore(b)] as const;
  }

  it("shows a license added on one node on the other, and adds it once when both add it", async () => {
    const [a, b] = await twoNodes(backend);
    const [onA, onB] = await Promise.all([a.add([found("1")], AT), b.add([found("1"), found("2")], AT)]);
    expect([onA.get("ny/1"), onB.get("ny/1")].sort()).toEqual(["added", "already watched"]);
    expect((await a.entries()).map((e) => e.license)).toEqual(["1", "2"]);
    expect(await b.entry("ny", "1")).toMatchObject({ outcome: "found", record: { business: "BUSINESS 1" }, unseen: 0 });
  });

  it("starts one check when both nodes start one at once, and a new one only once it is finished", async () => {
    const [a, b] = await twoNodes(backend);
    await a.add([found("1")], AT);
    const started = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).beginCheck("check now", AT)));
    expect(new Set(started.map((c) => c.id)).size).toBe(1);
    expect(started[0]).toMatchObject({ trigger: "check now", total: 1, finished_at: null });
    expect(await b.finishCheck(started[0]!.id, later(1000), [])).toEqual([]);
    expect(await a.finishCheck(started[0]!.id, later(2000), [])).toBeNull();
    const next = await b.beginCheck("schedule", later(3000));
    expect(next.id).not.toBe(started[0]!.id);
  });

  it("records a change once when two runners of one check answer for the same license", async () => {
    const [a, b] = await twoNodes(backend);
    await a.add([found("1", "OLD"), found("2")], AT);
    const check = await a.beginCheck("schedule", AT);
    const change = { state: "ny", license: "1", field: "business" as const, from: "OLD", to: "NEW" };
    await Promise.all([
      a.recordAnswers(check.id, later(10), [found("1", "NEW"), found("2")], [change], null),
      b.recordAnswers(check.id, later(20), [found("1", "NEW")], [change], null),
    ]);
    expect(await b.toCheck(check.id)).toEqual([]);
    expect((await a.changesOf(check.id)).map((c) => [c.license, c.to])).toEqual([["1", "NEW"]]);
    const alert = { key: `check:${check.id}:webhook`, kind: "webhook" as const, subject: "1 change", payload: "{}" };
    const [first, second] = await Promise.all([
      a.finishCheck(check.id, later(30), [alert]),
      b.finishCheck(check.id, later(40), [alert]),
    ]);
    expect([first, second].filter((ids) => ids !== null)).toHaveLength(1);
    expect(await a.check(check.id)).toMatchObject({ checked: 2, total: 2, changes: 1 });
    expect(await b.undelivered()).toMatchObject([{ kind: "webhook", subject: "1 change", attempts: 0 }]);
  });

  it("lets one node at a time claim an alert to send, and another once that claim has lapsed", async () => {
    const [a, b] = await twoNodes(backend);
    await a.add([found("1")], AT);
    const check = await a.beginCheck("schedule", AT);
    const alert = { key: `check:${check.id}:webhook`, kind: "webhook" as const, subject: "1 change", payload: "{}" };
    const [id] = (await a.finishCheck(check.id, AT, [alert]))!;
    const claims = await Promise.all([a.claim(id!, later(1), later(30_000)), b.claim(id!, later(1), later(30_000))]);
    expect(claims.filter(Boolean)).toMatchObject([{ id, key: alert.key, attempts: 0 }]);
    expect(await b.dueAt(id!)).toBe(later(30_000));
    // The node holding it died: once its claim lapses, the other takes it, and a send marks it done for both.
    expect(await b.claim(id!, later(30_001), later(60_000))).toMatchObject({ id });
    await b.delivered(id!, later(30_002));
    expect(await a.claim(id!, later(90_000), later(120_000))).toBeNull();
    expect(await a.dueAt(id!)).toBeNull();
    expect(await a.undelivered()).toEqual([]);
  });
});
