import Database from "better-sqlite3";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { StateDb } from "../../db/state-db.ts";
import { freshStateDb } from "../../testing/state-backends.ts";
import { publishSnapshot } from "./publish-snapshot.ts";
import { importingMachine } from "../../testing/snapshot-testing.ts";
import {
  listSnapshots,
  newestSnapshot,
  pruneSnapshots,
  readSnapshot,
  StaleStartError,
} from "../../store/snapshots/snapshot-store.ts";

let state: StateDb;
let machine: Awaited<ReturnType<typeof importingMachine>>;
beforeEach(async () => {
  state = await freshStateDb("postgres", "publish");
  machine = await importingMachine();
});
afterEach(async () => {
  await state.close();
  machine.close();
});

const HOUR = 3_600_000;
const at = (ms: number) => () => new Date(Date.parse("2026-11-26T09:00:00.000Z") + ms);

async function largeObjectExists(oid: number): Promise<boolean> {
  const { rows } = await sql<{
    n: number;
  }>`SELECT count(*) AS n FROM pg_largeobject_metadata WHERE oid = ${oid}`.execute(state.db);
  return rows[0]!.n === 1;
}

describe("publishing the license database as a snapshot", () => {
  it("stores a copy named by its SHA-256 that holds the licenses and no API key", async () => {
    await machine.importNy("FIRST");
    const { row, stored } = await publishSnapshot(state, machine.db, { now: at(0) });
    expect(stored).toBe(true);
    expect(row.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(row.states)).toEqual([{ state: "ny", records: 12, as_of: "2026-01-15" }]);
    expect(await newestSnapshot(state)).toEqual(row);

    const file = join(machine.dir, "fetched.sqlite");
    const parts: Buffer[] = [];
    for await (const part of readSnapshot(state, row)) parts.push(part);
    writeFileSync(file, Buffer.concat(parts));
    const copy = new Database(file, { readonly: true });
    expect(copy.prepare("SELECT count(*) FROM api_keys").pluck().get()).toBe(0);
    expect(copy.pragma("journal_mode", { simple: true })).toBe("delete");
    copy.close();
    // Not even in a free page: the key's hash is nowhere in the bytes.
    const hash = machine.db.prepare("SELECT hash FROM api_keys").pluck().get() as string;
    expect(Buffer.concat(parts).includes(hash)).toBe(false);
  });

  it("publishing the same content twice keeps one snapshot, made the newest again", async () => {
    await machine.importNy("FIRST");
    const first = await publishSnapshot(state, machine.db, { now: at(0) });
    await machine.importNy("SECOND");
    const second = await publishSnapshot(state, machine.db, { now: at(1000) });
    const again = await publishSnapshot(state, machine.db, { now: at(2000) });
    expect(again.stored).toBe(false);
    expect(again.row.sha256).toBe(second.row.sha256);
    expect(again.row.oid).toBe(second.row.oid);
    const kept = await listSnapshots(state);
    expect(kept.map((s) => s.sha256)).toEqual([second.row.sha256, first.row.sha256]);
    expect(kept[0]!.published_at).toBe(at(2000)().toISOString());
  });

  it("prunes snapshots past the grace period and keeps the newest however old", async () => {
    await machine.importNy("FIRST");
    const first = await publishSnapshot(state, machine.db, { now: at(0), graceMs: HOUR });
    await machine.importNy("SECOND");
    // Within the grace period: the one replaced stays, for a node still fetching it.
    const second = await publishSnapshot(state, machine.db, { now: at(HOUR / 2), graceMs: HOUR });
    expect(second.pruned).toEqual([]);
    expect(await largeObjectExists(first.row.oid)).toBe(true);

    await machine.importNy("THIRD");
    const third = await publishSnapshot(state, machine.db, { now: at(2 * HOUR), graceMs: HOUR });
    expect(third.pruned.sort()).toEqual([first.row.sha256, second.row.sha256].sort());
    expect(await largeObjectExists(first.row.oid)).toBe(false);
    expect(await largeObjectExists(second.row.oid)).toBe(false);

    // The only one left is old, and stays: nodes starting now still find data.
    expect(await pruneSnapshots(state, HOUR, at(30 * HOUR)())).toEqual([]);
    expect((await listSnapshots(state)).map((s) => s.sha256)).toEqual([third.row.sha256]);
    expect(await largeObjectExists(third.row.oid)).toBe(true);
  });

  it("is fenced: a publish from a start another snapshot has replaced is refused, and that one stays the newest", async () => {
    await machine.importNy("FIRST");
    const first = await publishSnapshot(state, machine.db, { now: at(0), startedFrom: null });
    // Another node's import, published while this machine's sync ran from `first`.
    const other = await importingMachine();
    try {
      await other.importNy("OTHER");
      const meanwhile = await publishSnapshot(state, other.db, { now: at(1000), startedFrom: first.row.sha256 });
      await machine.importNy("STALE");
      const refused = publishSnapshot(state, machine.db, { now: at(2000), startedFrom: first.row.sha256 });
      await expect(refused).rejects.toThrow(StaleStartError);
      await expect(refused).rejects.toThrow(
        `snapshot ${meanwhile.row.sha256.slice(0, 12)} was published at ${at(1000)().toISOString()}, after this ` +
          `database started from snapshot ${first.row.sha256.slice(0, 12)}`,
      );
      // Nothing came of it: no row, and no large object left behind.
      expect((await newestSnapshot(state))!.sha256).toBe(meanwhile.row.sha256);
      expect(await listSnapshots(state)).toHaveLength(2);
      // Republishing old content from a stale start is refused too.
      const back = publishSnapshot(state, other.db, { now: at(3000), startedFrom: first.row.sha256 });
      await expect(back).rejects.toThrow(StaleStartError);
      // A start from none, once one exists, is as stale.
      await expect(publishSnapshot(state, machine.db, { startedFrom: null })).rejects.toThrow(StaleStartError);
      // From the newest, it goes.
      const next = await publishSnapshot(state, machine.db, { now: at(4000), startedFrom: meanwhile.row.sha256 });
      expect((await newestSnapshot(state))!.sha256).toBe(next.row.sha256);
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_largeobject_metadata`.execute(
        state.db,
      );
      expect(rows[0]!.n).toBe(3);
    } finally {
      other.close();
    }
  });
});
