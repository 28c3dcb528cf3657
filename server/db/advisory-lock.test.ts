import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshPostgresUrl } from "../testing/state-backends.ts";
import { lockForTransaction, LockUnavailableError, takeLock, withLock } from "./advisory-lock.ts";

let url: string;
let admin: pg.Client;
beforeAll(async () => {
  url = await freshPostgresUrl("advisory_lock");
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
});
afterAll(() => admin.end());

/** The lock's entries in pg_locks, held and waiting: none once it is free and nobody waits. */
async function entries(name: string): Promise<{ held: number; waiting: number }> {
  const { rows } = await admin.query<{ held: number; waiting: number }>(
    `SELECT count(*) FILTER (WHERE granted)::int AS held, count(*) FILTER (WHERE NOT granted)::int AS waiting
       FROM pg_locks WHERE locktype = 'advisory' AND objid::int = hashtext($1)
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    [name],
  );
  return rows[0]!;
}

/** Resolves once another connection waits in the queue for `name`. */
async function someoneWaits(name: string): Promise<void> {
  await expect.poll(async () => (await entries(name)).waiting, { timeout: 5_000, interval: 20 }).toBe(1);
}

describe("an advisory lock", () => {
  it("is taken once: another try-once gets nothing until it is let go", async () => {
    const first = await takeLock(url, "once", { wait: false });
    expect(first).not.toBeNull();
    expect(await takeLock(url, "once", { wait: false })).toBeNull();
    expect(await entries("once")).toEqual({ held: 1, waiting: 0 });
    await first!.release();
    await first!.release();
    expect(await entries("once")).toEqual({ held: 0, waiting: 0 });
  });

  it("is free once the work under it throws, and the work's error comes through", async () => {
    await expect(
      withLock(url, "throws", async () => {
        expect(await entries("throws")).toEqual({ held: 1, waiting: 0 });
        throw new Error("the work failed");
      }),
    ).rejects.toThrow("the work failed");
    expect(await entries("throws")).toEqual({ held: 0, waiting: 0 });
  });

  it("waited for, is taken the moment its holder lets go, and `onWaiting` is told once", async () => {
    const holder = (await takeLock(url, "turns", { wait: false }))!;
    let told = 0;
    const order: string[] = [];
    const waiter = withLock(url, "turns", { wait: true, onWaiting: () => told++ }, async () => {
      order.push("waiter");
      return "ran";
    });
    await someoneWaits("turns");
    order.push("holder lets go");
    await holder.release();
    expect(await waiter).toBe("ran");
    expect(order).toEqual(["holder lets go", "waiter"]);
    expect(told).toBe(1);
    expect(await entries("turns")).toEqual({ held: 0, waiting: 0 });
  });

  it("waited for, is taken when its holder's connection dies", async () => {
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    holder.on("error", () => {});
    const { rows } = await holder.query<{ pid: number }>(
      "SELECT pg_backend_pid() AS pid, pg_advisory_lock(hashtext('dies'))",
    );
    const waiter = takeLock(url, "dies", { wait: true });
    await someoneWaits("dies");
    await admin.query("SELECT pg_terminate_backend($1)", [rows[0]!.pid]);
    const lock = (await waiter)!;
    expect(await entries("dies")).toEqual({ held: 1, waiting: 0 });
    await lock.release();
    await holder.end().catch(() => {});
  });

  it("whose connection is lost while held, is free, and letting it go afterwards does not throw", async () => {
    const lock = (await takeLock(url, "lost", { wait: false }))!;
    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_locks
        WHERE locktype = 'advisory' AND objid::int = hashtext('lost') AND granted
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    await expect.poll(async () => (await entries("lost")).held, { timeout: 5_000, interval: 20 }).toBe(0);
    await expect.poll(() => lock.lost.aborted, { timeout: 5_000, interval: 20 }).toBe(true);
    await expect(lock.release()).resolves.toBeUndefined();
    const again = await takeLock(url, "lost", { wait: false });
    expect(again).not.toBeNull();
    await again!.release();
    // Let go on purpose: not lost.
    expect(again!.lost.aborted).toBe(false);
  });

  it("waited for, gives up when the signal aborts: the wait ends on the server too, and the work never runs", async () => {
    const holder = (await takeLock(url, "aborted", { wait: false }))!;
    const stopping = new AbortController();
    let ran = false;
    const waiter = withLock(url, "aborted", { wait: true, signal: stopping.signal }, async () => {
      ran = true;
    });
    await someoneWaits("aborted");
    stopping.abort();
    expect(await waiter).toBeNull();
    // Nobody left queued: the holder's letting go frees it for any node's try-once, at once.
    expect(await entries("aborted")).toEqual({ held: 1, waiting: 0 });
    await holder.release();
    const next = await takeLock(url, "aborted", { wait: false });
    expect(next).not.toBeNull();
    await next!.release();
    expect(ran).toBe(false);
    // Aborted before it asks: it does not connect at all.
    expect(await takeLock(url, "aborted", { wait: true, signal: AbortSignal.abort() })).toBeNull();
  });

  it("says PostgreSQL could not be asked, apart from the work's own errors", async () => {
    const nowhere = url.replace(/\/[^/]+$/, "/no_such_database");
    const failed = withLock(nowhere, "nowhere", () => Promise.resolve("never"));
    await expect(failed).rejects.toBeInstanceOf(LockUnavailableError);
    await expect(failed).rejects.toThrow(/no_such_database/);
  });

  it("held by a transaction, lasts until it commits", async () => {
    const db = new Kysely<object>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url }) }) });
    try {
      let release!: () => void;
      const committing = new Promise<void>((resolve) => (release = resolve));
      const transaction = db.transaction().execute(async (trx) => {
        await lockForTransaction(trx, "publish");
        await committing;
      });
      await expect.poll(async () => (await entries("publish")).held, { timeout: 5_000, interval: 20 }).toBe(1);
      expect(await takeLock(url, "publish", { wait: false })).toBeNull();
      release();
      await transaction;
      expect(await entries("publish")).toEqual({ held: 0, waiting: 0 });
    } finally {
      await db.destroy();
    }
  });
});
