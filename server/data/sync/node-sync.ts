import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { basename, dirname, join } from "node:path";
import type { Kysely } from "kysely";
import pg from "pg";
import {
  idType,
  migrateStateDb,
  openStateDb,
  withoutPassword,
  type MigrationSet,
  type StateDb,
} from "../../db/state-db.ts";
import { hashFile } from "../../store/snapshots/snapshot-store.ts";
import { fetchSnapshot } from "../../store/snapshots/snapshot-follower.ts";
import {
  newestSnapshot,
  SNAPSHOT_MIGRATIONS,
  SNAPSHOT_TABLE_PREFIX,
  type SnapshotRow,
} from "../../store/snapshots/snapshot-store.ts";

/** The advisory lock's name: one sync at a time among every node on one DATABASE_URL. */
export const NODE_SYNC_LOCK = "lls_sync";

/** This process, as the record of syncs names it. */
export const THIS_NODE = `${hostname()} pid ${process.pid}`;

/**
 * Takes the nodes' sync lock: a PostgreSQL session advisory lock on a connection of its own, so that it dies with
 * the process (a killed node frees it). Returns the function that lets it go, or null when another node holds it.
 */
export async function takeNodeSyncLock(databaseUrl: string): Promise<(() => Promise<void>) | null> {
  return lockOnOwnConnection(databaseUrl, "SELECT pg_try_advisory_lock(hashtext($1)) AS taken");
}

/**
 * The same lock, waited for: an import, or a scheduled sync, takes its turn after the sync or import under way, and
 * takes it at once when the node holding it dies. Says so to `say` once when another node holds it. Returns null
 * only when `signal` ends the wait (the process is stopping).
 */
export async function waitForNodeSyncLock(
  databaseUrl: string,
  say: (line: string) => void,
  signal?: AbortSignal,
): Promise<(() => Promise<void>) | null> {
  const unlock = await takeNodeSyncLock(databaseUrl);
  if (unlock || signal?.aborted) return unlock;
  say(`waiting for another node's sync or import to end (it holds the sync lock in ${withoutPassword(databaseUrl)})`);
  return lockOnOwnConnection(databaseUrl, "SELECT pg_advisory_lock(hashtext($1)), true AS taken", signal);
}

async function lockOnOwnConnection(
  databaseUrl: string,
  sql: string,
  signal?: AbortSignal,
): Promise<(() => Promise<void>) | null> {
  const client = new pg.Client({ connectionString: databaseUrl });
  // A broken connection loses the lock with it; the sync under way still ends and publishes as it would.
  client.on("error", () => {});
  await client.connect();
  // Stopping while waiting: the connection closed ends the wait (and would free a lock taken meanwhile).
  if (signal?.aborted) {
    await client.end().catch(() => {});
    return null;
  }
  const stop = () => void client.end().catch(() => {});
  signal?.addEventListener("abort", stop, { once: true });
  try {
    const { rows } = await client.query<{ taken: boolean }>(sql, [NODE_SYNC_LOCK]);
    if (rows[0]?.taken && !signal?.aborted) return () => client.end().catch(() => {});
  } catch (error) {
    await client.end().catch(() => {});
    if (signal?.aborted) return null;
    throw error;
  } finally {
    signal?.removeEventListener("abort", stop);
  }
  await client.end().catch(() => {});
  return null;
}

interface SyncRoundTables {
  sync_rounds: { id?: number; node: string; sha256: string; finished_at: string };
}

// The record of syncs that published: a scheduled round skips when another node's is younger than its period.
export const SYNC_ROUND_MIGRATIONS: MigrationSet = {
  "2026-11-26-sync-rounds": (backend) => ({
    async up(db) {
      await db.schema
        .createTable("sync_rounds")
        .addColumn("id", idType(backend), (c) => c.primaryKey())
        .addColumn("node", "text", (c) => c.notNull())
        .addColumn("sha256", "text", (c) => c.notNull())
        .addColumn("finished_at", "text", (c) => c.notNull())
        .execute();
    },
  }),
};

/** Brings the tables a sync across nodes reads up to date (the snapshots' and the record of syncs). */
export async function migrateNodeSync(state: StateDb): Promise<void> {
  await migrateStateDb(state, SNAPSHOT_TABLE_PREFIX, SNAPSHOT_MIGRATIONS);
  await migrateStateDb(state, "sync_rounds", SYNC_ROUND_MIGRATIONS);
}

export interface SyncRound {
  node: string;
  sha256: string;
  finished_at: string;
}

/** Notes that `node` synced and published `sha256`. */
export async function recordSyncRound(state: StateDb, round: SyncRound): Promise<void> {
  await (state.db as Kysely<SyncRoundTables>).insertInto("sync_rounds").values(round).execute();
}

/** The newest sync that published, by any node; null when none has. */
export async function lastSyncRound(state: StateDb): Promise<SyncRound | null> {
  const row = await (state.db as Kysely<SyncRoundTables>)
    .selectFrom("sync_rounds")
    .select(["node", "sha256", "finished_at"])
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * What `<db>.snapshot` says: the local file is the snapshot `sha256` (fetched, or published from it) as long as
 * its size and time of change are these. A sync's publish strips the keys, so the bytes alone cannot tell.
 */
interface SnapshotMark {
  sha256: string;
  size: number;
  mtimeMs: number;
}

const markPath = (file: string) => `${file}.snapshot`;

/** Notes that `file`, as it is now, holds the snapshot `sha256`. */
export function markAsSnapshot(file: string, sha256: string): void {
  const { size, mtimeMs } = statSync(file);
  writeFileSync(markPath(file), JSON.stringify({ sha256, size, mtimeMs } satisfies SnapshotMark) + "\n");
}

function markedAs(file: string): string | null {
  try {
    const mark = JSON.parse(readFileSync(markPath(file), "utf8")) as SnapshotMark;
    const { size, mtimeMs } = statSync(file);
    return mark.size === size && mark.mtimeMs === mtimeMs ? mark.sha256 : null;
  } catch {
    return null;
  }
}

/**
 * Makes `file` start from the newest published snapshot, unless it is that snapshot already: fetched under a
 * temporary name beside it, its SHA-256 checked, then renamed over it (and said to `say`). Returns the snapshot and
 * whether it was fetched; null when none is published (the file stays as it is).
 */
export async function startFromNewestSnapshot(
  state: StateDb,
  file: string,
  say: (line: string) => void = () => {},
): Promise<{ row: SnapshotRow; fetched: boolean } | null> {
  const row = await newestSnapshot(state);
  if (!row) return null;
  if (existsSync(file) && (markedAs(file) === row.sha256 || (await hashFile(file)).sha256 === row.sha256)) {
    markAsSnapshot(file, row.sha256);
    return { row, fetched: false };
  }
  const fetched = join(dirname(file), `.${basename(file)}.snapshot-${process.pid}`);
  try {
    await fetchSnapshot(state, row, fetched, () => false);
    // The old file's journal would be replayed into the new one: gone first (the locks keep other syncs out).
    for (const suffix of ["-wal", "-shm", "-journal"]) rmSync(file + suffix, { force: true });
    renameSync(fetched, file);
    markAsSnapshot(file, row.sha256);
    say(`${file} starts from snapshot ${row.sha256.slice(0, 12)}, the newest (published ${row.published_at})`);
    return { row, fetched: true };
  } finally {
    rmSync(fetched, { force: true });
  }
}

/**
 * An import's turn with DATABASE_URL: the nodes' sync lock, waited for, and `file` made the newest published
 * snapshot, so that what the import publishes holds what every sync and import published before it, and no sync
 * publishes over it from an older start. `say` gets a line for each of those it had to do. Returns the function
 * that ends the turn, given the snapshot the import published (marked on the file) or nothing.
 */
export async function takeImportTurn(
  databaseUrl: string,
  file: string,
  say: (line: string) => void,
): Promise<(published?: SnapshotRow) => Promise<void>> {
  const state = openStateDb({ url: databaseUrl, poolSize: 2 });
  let unlock: (() => Promise<void>) | undefined;
  try {
    unlock = (await waitForNodeSyncLock(databaseUrl, say))!;
    await migrateNodeSync(state);
    await startFromNewestSnapshot(state, file, say);
  } catch (error) {
    await unlock?.();
    throw error;
  } finally {
    await state.close();
  }
  const release = unlock;
  return async (published) => {
    try {
      if (published) markAsSnapshot(file, published.sha256);
    } finally {
      await release();
    }
  };
}
