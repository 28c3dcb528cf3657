import { sql, type Kysely } from "kysely";
import type pg from "pg";
import { ownConnection, type ConnectionTarget } from "./own-connection.ts";

/**
 * PostgreSQL advisory locks: how the nodes on one database take turns (a sync or an import, making a schema, a
 * publish). A lock is named, and its key is hashtext(name), so one taken by hand in psql is the same lock.
 */

/** Meeting a lock held elsewhere: not taken (`wait: false`), or waited for until it is free or `signal` aborts. */
export type Turn = { wait: false } | { wait: true; signal?: AbortSignal; onWaiting?: () => void };

export interface HeldLock {
  /** Lets the lock go and ends its connection; a second call does nothing more. */
  release(): Promise<void>;
  /** Aborted when the lock's connection ends before `release`: the lock is no longer held, another may take it. */
  lost: AbortSignal;
}

/** PostgreSQL could not be asked for the lock (unreachable, refusing): the work under it never ran. */
export class LockUnavailableError extends Error {
  constructor(
    readonly lock: string,
    cause: unknown,
  ) {
    super((cause as Error).message, { cause });
  }
}

// The server probes an idle holder: one whose machine vanished loses its lock within about 25 s, rather than after
// the operating system's two hours. Ignored on a Unix socket, whose peer cannot vanish unseen.
const PREPARE = `SELECT set_config('tcp_keepalives_idle', '10', false), set_config('tcp_keepalives_interval', '5', false),
  set_config('tcp_keepalives_count', '3', false), pg_backend_pid() AS pid`;

/**
 * Takes the lock on a connection of its own, so that it lasts exactly as long as its holder: a process killed, or
 * a connection lost, frees it. Returns null when it is not taken: held elsewhere with `wait: false`, or `signal`
 * aborted before it was. `onWaiting` is called once, when another holds it and the wait begins.
 */
export async function takeLock(target: ConnectionTarget, name: string, turn: Turn): Promise<HeldLock | null> {
  const signal = turn.wait ? turn.signal : undefined;
  if (signal?.aborted) return null;
  const client = ownConnection(target);
  let locked = false;
  try {
    await client.connect();
    const { rows } = await client.query<{ pid: number }>(PREPARE);
    locked = await query(client, "SELECT pg_try_advisory_lock(hashtext($1)) AS taken", name);
    if (!locked && turn.wait && !signal?.aborted) {
      turn.onWaiting?.();
      locked = await waitFor(client, rows[0]!.pid, target, name, signal);
    }
  } catch (error) {
    await client.end().catch(() => {});
    if (signal?.aborted) return null;
    throw new LockUnavailableError(name, error);
  }
  if (!locked || signal?.aborted) {
    await letGo(client, name, locked);
    return null;
  }
  let released: Promise<void> | undefined;
  const lost = new AbortController();
  const onEnd = () => {
    if (!released) lost.abort(new Error(`the connection holding the lock ${name} ended`));
  };
  client.once("end", onEnd);
  return { release: () => (released ??= letGo(client, name, true)), lost: lost.signal };
}

/** What `work` under a lock is given: `lost` aborts when the lock's connection ends while the work runs. */
type Work<T> = (lost: AbortSignal) => Promise<T>;

/** Runs `work` holding the lock, waited for as long as it takes; lets it go however `work` ends. */
export function withLock<T>(target: ConnectionTarget, name: string, work: Work<T>): Promise<T>;
/** Runs `work` holding the lock, taken as `turn` says; null, and `work` never run, when it is not taken. */
export function withLock<T>(target: ConnectionTarget, name: string, turn: Turn, work: Work<T>): Promise<T | null>;
export async function withLock<T>(
  target: ConnectionTarget,
  name: string,
  turnOrWork: Turn | Work<T>,
  work?: Work<T>,
): Promise<T | null> {
  const [turn, run] = typeof turnOrWork === "function" ? [{ wait: true } as const, turnOrWork] : [turnOrWork, work!];
  const lock = await takeLock(target, name, turn);
  if (!lock) return null;
  try {
    return await run(lock.lost);
  } finally {
    await lock.release();
  }
}

/**
 * The same lock, held by the transaction `trx` until it commits or rolls back. For work that must be one
 * transaction, seen by others only once committed (a publish, numbered in commit order): a lock on a connection of
 * its own could be lost while the transaction still commits, and a wait across two connections is hidden from
 * PostgreSQL's deadlock detector; this one shares the transaction's fate and is seen.
 */
// Any database's transaction: the lock touches none of its tables.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function lockForTransaction(trx: Kysely<any>, name: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${name}))`.execute(trx);
}

async function query(client: pg.Client, text: string, name: string): Promise<boolean> {
  const { rows } = await client.query<{ taken: boolean }>(text, [name]);
  return rows[0]?.taken === true;
}

/**
 * Waits in PostgreSQL's queue for the lock: taken the moment its holder lets go or dies. Stopped by `signal`, the
 * wait is cancelled on the server rather than only left: a waiter still queued there would keep every other
 * node's try-once out when the holder lets go.
 */
async function waitFor(
  client: pg.Client,
  pid: number,
  target: ConnectionTarget,
  name: string,
  signal?: AbortSignal,
): Promise<boolean> {
  const cancel = () => {
    void cancelQuery(target, pid).catch(() => {});
    // Should the cancel miss (it could not connect, or overtook the query to the server), the end stops the wait here.
    setTimeout(() => void client.end().catch(() => {}), 1_000).unref();
  };
  signal?.addEventListener("abort", cancel, { once: true });
  try {
    return await query(client, "SELECT pg_advisory_lock(hashtext($1)), true AS taken", name);
  } catch (error) {
    if (signal?.aborted) return false;
    throw error;
  } finally {
    signal?.removeEventListener("abort", cancel);
  }
}

async function cancelQuery(target: ConnectionTarget, pid: number): Promise<void> {
  const client = ownConnection(target);
  try {
    await client.connect();
    await client.query("SELECT pg_cancel_backend($1)", [pid]);
  } finally {
    await client.end().catch(() => {});
  }
}

async function letGo(client: pg.Client, name: string, locked: boolean): Promise<void> {
  // Unlocked before the connection ends: free when this returns, not once the server has seen the end.
  if (locked) await client.query("SELECT pg_advisory_unlock(hashtext($1))", [name]).catch(() => {});
  await client.end().catch(() => {});
}
