import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { migrateStateDb, openStateDb, type Backend, type StateDb } from "../db/state-db.ts";
import { BACKENDS, freshPostgresUrl } from "../testing/state-backends.ts";
import { createKeyRepo, type Caller, type KeyRepo } from "./key-repo.ts";
import { openDatabase } from "../store/open-database.ts";
import { openServiceState, SERVICE_MIGRATIONS } from "../store/service-state.ts";

/** Where the service keeps keys: the license file's own table on SQLite, SERVICE_MIGRATIONS' on PostgreSQL. */
async function keyState(backend: Backend): Promise<StateDb> {
  if (backend === "sqlite") return openStateDb({ sqlite: openDatabase(":memory:") });
  const state = openStateDb({ url: await freshPostgresUrl("keys"), poolSize: 4 });
  await migrateStateDb(state, "service", SERVICE_MIGRATIONS);
  return state;
}

const verified = async (keys: KeyRepo, key: string): Promise<Caller | null> => await keys.verify(key);

describe.each(BACKENDS)("key repository on %s", (backend) => {
  let state: StateDb;
  let keys: KeyRepo;
  beforeAll(async () => {
    state = await keyState(backend);
    keys = createKeyRepo(state);
  });
  afterAll(async () => {
    await keys.close();
    await state.close();
    state.sqlite?.close();
  });

  it("stores only a hash of the key", async () => {
    const { key } = await keys.create(["ny"], "ops");
    const stored = JSON.stringify((await sql`SELECT * FROM api_keys`.execute(state.db)).rows);
    expect(stored).not.toContain(key);
    expect(stored).not.toContain(key.slice(3));
  });

  it("knows a key's scope", async () => {
    const caller = (await verified(keys, (await keys.create(["ny", "ma"])).key))!;
    expect(["ny", "ma", "nj"].map((s) => caller.covers(s))).toEqual([true, true, false]);
    expect((await verified(keys, (await keys.create(["*"])).key))!.covers("wy")).toBe(true);
  });

  it("answers a key it has checked from memory, without waiting", async () => {
    const { key } = await keys.create(["ny"]);
    expect(await verified(keys, key)).not.toBeNull();
    expect(keys.verify(key)).not.toBeInstanceOf(Promise);
  });

  it("refuses a revoked key, and lists when it was revoked", async () => {
    const { id, key } = await keys.create(["ny"]);
    expect(await verified(keys, key)).not.toBeNull();
    expect(await keys.revoke(id)).toBe(true);
    expect(await verified(keys, key)).toBeNull();
    expect(await keys.revoke(id)).toBe(false);
    expect((await keys.list()).find((k) => k.id === id)?.revoked_at).toMatch(/^\d{4}-/);
  });

  it("refuses keys that are malformed or unknown", async () => {
    const { key } = await keys.create(["ny"]);
    expect(await verified(keys, key.slice(0, -1) + (key.endsWith("A") ? "B" : "A"))).toBeNull();
    expect(keys.verify("")).toBeNull();
    expect(keys.verify(`${key} `)).toBeNull();
  });

  it("lists keys in the order they were made, with their scope and label", async () => {
    const { id } = await keys.create(["ga", "nj"], "front desk");
    const listed = await keys.list();
    expect(listed.at(-1)).toMatchObject({ id, states: ["ga", "nj"], label: "front desk", revoked_at: null });
    expect(listed.map((k) => k.id)).toEqual([...listed.map((k) => k.id)].sort((a, b) => a - b));
  });
});

/** Polls `check` until it holds, returning the milliseconds it took; fails after `withinMs`. */
async function within(withinMs: number, check: () => Promise<boolean>): Promise<number> {
  const start = performance.now();
  while (performance.now() - start < withinMs) {
    if (await check()) return performance.now() - start;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`not within ${withinMs} ms`);
}

describe("two service nodes on one PostgreSQL database", () => {
  let url: string;
  const opened: { state: StateDb; keys: KeyRepo }[] = [];
  /** A node's own pool and key repository, following the keys as startServer's does. */
  async function node(pollMs?: number) {
    const state = await openServiceState(url);
    const keys = createKeyRepo(state, { pollMs });
    await keys.follow();
    opened.push({ state, keys });
    return keys;
  }
  beforeAll(async () => {
    url = await freshPostgresUrl("key_nodes");
  });
  afterEach(async () => {
    for (const { keys, state } of opened.splice(0)) {
      await keys.close();
      await state.close();
    }
  });

  it("a key revoked through one node is refused by the other within 2 seconds", async () => {
    const [a, b] = [await node(), await node()];
    const { id, key } = await a.create(["ny"]);
    expect(await verified(b, key)).not.toBeNull();
    expect(b.verify(key)).not.toBeInstanceOf(Promise); // held in memory: the revocation must reach it
    await a.revoke(id);
    const took = await within(2000, async () => (await verified(b, key)) === null);
    expect(took).toBeLessThan(2000);
  });

  it("a key created through one node is accepted by the other at once", async () => {
    const [a, b] = [await node(), await node()];
    // b holds its keys in memory before the new one exists.
    await verified(b, (await a.create(["ny"])).key);
    const { key } = await a.create(["ma"]);
    expect((await verified(b, key))?.covers("ma")).toBe(true);
  });

  it("still refuses a revoked key within 2 seconds when its notifications are lost", async () => {
    const [a, b] = [await node(), await node()];
    const { id, key } = await a.create(["ny"]);
    expect(await verified(b, key)).not.toBeNull();
    // Cut every listening connection to this database (not the other test files' on the shared cluster): only
    // the poll is left to tell b.
    const admin = openStateDb({ url });
    await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE datname = current_database() AND query LIKE 'LISTEN%'`.execute(admin.db);
    await admin.close();
    await a.revoke(id);
    expect(await within(2000, async () => (await verified(b, key)) === null)).toBeLessThan(2000);
  });

  it("keeps serving the keys it holds while PostgreSQL is away, and refuses what it cannot check", async () => {
    const b = await node();
    const { key } = await b.create(["ny"]);
    expect(await verified(b, key)).not.toBeNull();
    // Its database gone (dropped under it): the node's memory still vouches for the key it knows.
    const admin = openStateDb({ url: url.replace(/\/[^/]+$/, "/postgres") });
    const name = new URL(url).pathname.slice(1);
    await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${name}`.execute(admin.db);
    await sql.raw(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`).execute(admin.db);
    try {
      expect(b.verify(key)).not.toBeInstanceOf(Promise);
      expect(await verified(b, key)).not.toBeNull();
      await expect(b.verify(`ll_${"Z".repeat(43)}`)).rejects.toThrow();
    } finally {
      await sql.raw(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`).execute(admin.db);
      await admin.close();
    }
  });
});
