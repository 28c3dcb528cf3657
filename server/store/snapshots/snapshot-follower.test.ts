import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setImmediate as nextTurn, setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildApp } from "../../service/app.ts";
import { openStateDb, type StateDb } from "../../db/state-db.ts";
import { freshPostgresUrl } from "../../testing/state-backends.ts";
import { publishSnapshot } from "../../data/publish/publish-snapshot.ts";
import { followSnapshots, type FollowOptions, type SnapshotFollower } from "./snapshot-follower.ts";
import { SNAPSHOT_HEADER } from "../../service/snapshot-header.ts";
import { importingMachine } from "../../testing/snapshot-testing.ts";

let url: string;
let state: StateDb;
let machine: Awaited<ReturnType<typeof importingMachine>>;
let nodeDir: string;
const followers: SnapshotFollower[] = [];
const logs: string[] = [];

beforeEach(async () => {
  url = await freshPostgresUrl("follow");
  state = openStateDb({ url, poolSize: 4 });
  machine = await importingMachine();
  nodeDir = mkdtempSync(join(tmpdir(), "snapshot-node-"));
  logs.length = 0;
});
afterEach(async () => {
  for (const f of followers.splice(0)) await f.close();
  await state.close();
  machine.close();
  rmSync(nodeDir, { recursive: true, force: true });
});

/** A service node: its follower, and the app over it, as `npm run api` with DATABASE_URL builds them. */
async function startNode(options: Partial<FollowOptions> = {}) {
  const follower = await followSnapshots({
    state,
    databaseUrl: url,
    localFile: join(nodeDir, "licenses.sqlite"),
    log: (line) => logs.push(line),
    ...options,
  });
  followers.push(follower);
  const app = buildApp({
    licenses: follower.licenses,
    keys: machine.keys,
    rateLimit: false,
    snapshot: follower.served,
    readiness: () => Promise.resolve(follower.snapshotReadiness()),
  });
  const ask = async (path: string) => {
    const answer = await app.inject({ url: path, headers: { authorization: `Bearer ${machine.key}` } });
    return {
      status: answer.statusCode,
      header: answer.headers[SNAPSHOT_HEADER],
      body: answer.json<{ data: unknown }>(),
    };
  };
  const searchNy = async () => {
    const { status, header, body } = await ask("/v2/search?state=ny&name=tavern");
    return { status, header, names: (body.data as { business: string }[]).map((l) => l.business) };
  };
  return { follower, app, ask, searchNy };
}

async function publish(word: string) {
  await machine.importNy(word);
  return (await publishSnapshot(state, machine.db)).row;
}

async function until(condition: () => boolean, withinMs: number): Promise<number> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > withinMs) throw new Error(`not within ${withinMs} ms`);
    await sleep(20);
  }
  return Date.now() - start;
}

describe("a service node follows the published snapshots", () => {
  it("a node started after a publish serves that snapshot, and names it", async () => {
    const first = await publish("FIRST");
    const node = await startNode({ pollMs: 3_600_000 });
    await node.follower.loaded;
    expect(node.follower.snapshotReadiness()).toEqual([]);

    const found = await node.searchNy();
    expect(found.status).toBe(200);
    expect(found.header).toBe(first.sha256.slice(0, 12));
    expect(found.names).toHaveLength(10);
    expect(found.names.every((n) => n.startsWith("FIRST "))).toBe(true);

    const states = await node.ask("/v2/states");
    expect(states.header).toBe(first.sha256.slice(0, 12));
    expect(states.body).toMatchObject({ snapshot: { sha256: first.sha256, published_at: first.published_at } });
    // Every /v2 answer names it, a refusal included.
    const refused = await node.app.inject({ url: "/v2/states" });
    expect([refused.statusCode, refused.headers[SNAPSHOT_HEADER]]).toEqual([401, first.sha256.slice(0, 12)]);
    // Kept beside --db under its SHA-256, nothing left half-written.
    expect(readdirSync(nodeDir)).toEqual([`licenses-snapshot-${first.sha256}.sqlite`]);
  });

  it("a new publish reaches a running node within seconds by NOTIFY", async () => {
    await publish("FIRST");
    const node = await startNode({ pollMs: 3_600_000 });
    await node.follower.loaded;
    const second = await publish("SECOND");
    await until(() => node.follower.served()?.sha256 === second.sha256, 5_000);
    const found = await node.searchNy();
    expect(found.header).toBe(second.sha256.slice(0, 12));
    expect(found.names.every((n) => n.startsWith("SECOND "))).toBe(true);
    // The old file goes once its connection has closed.
    await until(() => readdirSync(nodeDir).length === 1, 2_000);
  });

  it("a publish whose notification is lost reaches the node by polling", async () => {
    await publish("FIRST");
    const node = await startNode({ listen: false, pollMs: 300 });
    await node.follower.loaded;
    const second = await publish("SECOND");
    await until(() => node.follower.served()?.sha256 === second.sha256, 5_000);
    expect((await node.searchNy()).names[0]).toMatch(/^SECOND /);
  });

  it("a node whose LISTEN connection dropped reconnects, and takes what was published meanwhile", async () => {
    await publish("FIRST");
    const node = await startNode({ pollMs: 3_600_000 });
    await node.follower.loaded;
    // As a PostgreSQL restart or a network cut would: the server ends the listening session, once the node
    // has one (it listens after it loads).
    let ended = 0;
    const deadline = Date.now() + 5_000;
    while (ended === 0 && Date.now() < deadline) {
      const { rows } = await sql<{ n: number }>`
        SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity
        WHERE datname = current_database() AND query LIKE 'LISTEN%'`.execute(state.db);
      ended = rows[0]!.n;
      if (ended === 0) await sleep(20);
    }
    expect(ended).toBe(1);
    const second = await publish("SECOND");
    await until(() => node.follower.served()?.sha256 === second.sha256, 10_000);
    expect(logs.join("\n")).toMatch(/lost the snapshot notifications .*reconnecting/);
    const third = await publish("THIRD");
    await until(() => node.follower.served()?.sha256 === third.sha256, 5_000);
  });

  it("a search loop running through swaps never fails, and each answer comes from the snapshot it names", async () => {
    const word = new Map<string, string>();
    const first = await publish("FIRST");
    word.set(first.sha256.slice(0, 12), "FIRST");
    const node = await startNode({ pollMs: 3_600_000 });
    await node.follower.loaded;

    let stop = false;
    const seen = new Set<string>();
    let answers = 0;
    const loop = (async () => {
      while (!stop) {
        const { status, header, names } = await node.searchNy();
        expect(status).toBe(200);
        expect(names).toHaveLength(10);
        // Recorded before the publish returns? Then look the word up once it is known.
        await until(() => word.has(header as string), 5_000);
        expect(names.every((n) => n.startsWith(`${word.get(header as string)} `))).toBe(true);
        seen.add(header as string);
        answers++;
        // inject never leaves the process: without a turn, the loop would starve the follower's I/O.
        await nextTurn();
      }
    })();
    for (const next of ["SECOND", "THIRD"]) {
      await machine.importNy(next);
      const { row } = await publishSnapshot(state, machine.db);
      word.set(row.sha256.slice(0, 12), next);
      await until(() => node.follower.served()?.sha256 === row.sha256, 5_000);
      await sleep(100);
    }
    stop = true;
    await loop;
    expect(seen.size).toBe(3);
    expect(answers).toBeGreaterThan(10);
  });

  it("refuses a snapshot whose bytes do not match its SHA-256, and keeps serving the one it had", async () => {
    const first = await publish("FIRST");
    const node = await startNode({ listen: false, pollMs: 3_600_000 });
    await node.follower.loaded;
    const second = await publish("SECOND");
    // Damaged in storage: one byte in its middle changed.
    await sql`SELECT lo_put(${second.oid}::oid, ${Math.floor(second.bytes / 2)}::bigint, '\\x2a'::bytea)`.execute(
      state.db,
    );

    await node.follower.check();
    expect(node.follower.served()?.sha256).toBe(first.sha256);
    const found = await node.searchNy();
    expect(found.status).toBe(200);
    expect(found.header).toBe(first.sha256.slice(0, 12));
    expect(logs.join("\n")).toMatch(/refused snapshot .*not the one it was published under.*still serving/);
    expect(node.follower.snapshotReadiness()).toEqual([]);
    expect(readdirSync(nodeDir)).toEqual([`licenses-snapshot-${first.sha256}.sqlite`]);

    // Not fetched again on every poll; the next good publish is taken.
    await node.follower.check();
    expect(logs.filter((l) => l.startsWith("refused"))).toHaveLength(1);
    const third = await publish("THIRD");
    await node.follower.check();
    expect(node.follower.served()?.sha256).toBe(third.sha256);
  });

  it("with nothing published and no local file, waits and says why, then serves the first publish", async () => {
    const node = await startNode({ listen: false, pollMs: 200 });
    expect(node.follower.snapshotReadiness()).toEqual([
      expect.stringMatching(/no snapshot is published in .* yet, and .*licenses\.sqlite does not exist/),
    ]);
    expect(logs.join("\n")).toMatch(/waiting for `npm run import` or `npm run sync` with DATABASE_URL/);
    // A balancer leaves it out meanwhile.
    const waiting = await node.app.inject({ url: "/readyz" });
    expect(waiting.statusCode).toBe(503);
    expect(waiting.json<{ detail: string }>().detail).toMatch(/^Not ready: no snapshot is published in /);

    const first = await publish("FIRST");
    await node.follower.loaded;
    expect(node.follower.served()?.sha256).toBe(first.sha256);
    expect((await node.app.inject({ url: "/readyz" })).statusCode).toBe(200);
  });

  it("with nothing published and a local file it cannot serve, says why and takes the first publish", async () => {
    const localFile = join(nodeDir, "licenses.sqlite");
    writeFileSync(localFile, "not a database ".repeat(400));
    const node = await startNode({ listen: false, pollMs: 200, localFile });
    expect(node.follower.snapshotReadiness()).toEqual([expect.stringMatching(/cannot open .*licenses\.sqlite/)]);
    const first = await publish("FIRST");
    await node.follower.loaded;
    expect(node.follower.served()?.sha256).toBe(first.sha256);
  });

  it("serves the local file while nothing is published, without naming a snapshot", async () => {
    await machine.importNy("LOCAL");
    const localFile = machine.db.name;
    const node = await startNode({ listen: false, pollMs: 3_600_000, localFile });
    await node.follower.loaded;
    const found = await node.searchNy();
    expect(found.header).toBeUndefined();
    expect(found.names[0]).toMatch(/^LOCAL /);
    expect((await node.ask("/v2/states")).body).toMatchObject({ snapshot: null });
    expect(existsSync(localFile)).toBe(true);
  });
});
