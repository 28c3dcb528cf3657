import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import Database from "better-sqlite3";
import { basename, dirname, join } from "node:path";
import type { Kysely } from "kysely";
import { takeLock, type Turn } from "../../db/advisory-lock.ts";
import {
  idType,
  migrateStateDb,
  openStateDb,
  withoutPassword,
  type MigrationSet,
  type StateDb,
} from "../../db/state-db.ts";
import { fetchSnapshot } from "../../store/snapshots/snapshot-follower.ts";
import { statesHeld, type HeldState } from "../publish/publish-snapshot.ts";
import {
  hashFile,
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
 * How a sync or an import meets another node's holding the nodes' sync lock: it waits its turn, saying so once to
 * `say`, and takes the lock at once when that node ends or dies; until `signal` aborts (the process is stopping).
 */
export function waitForTurn(databaseUrl: string, say: (line: string) => void, signal?: AbortSignal): Turn {
  const where = withoutPassword(databaseUrl);
  const onWaiting = () => say(`waiting for another node's sync or import to end (it holds the sync lock in ${where})`);
  return { wait: true, signal, onWaiting };
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

/** Notes that this node synced `file` and published it as `published`: on the file, and for the other nodes. */
export async function recordSyncRound(state: StateDb, file: string, published: SnapshotRow): Promise<void> {
  markAsSnapshot(file, published.sha256);
  const round: SyncRound = { node: THIS_NODE, sha256: published.sha256, finished_at: published.published_at };
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

/** What an import's turn gives: the snapshot its file started from (null: none was published), and its end. */
export interface ImportTurn {
  startedFrom: string | null;
  /** Ends the turn, given the snapshot the import published (marked on the file) or nothing. */
  end(published?: SnapshotRow): Promise<void>;
}

/** An import refused before it began: its file holds states no published snapshot does, which it would drop. */
export class UnpublishedStatesError extends Error {
  constructor(
    readonly file: string,
    readonly states: HeldState[],
    newest: SnapshotRow,
  ) {
    const names = states.map((s) => s.state.toUpperCase()).join(", ");
    super(
      `${file} holds ${names} as no published snapshot does (imported without DATABASE_URL, or a publish that ` +
        `failed or was refused): an import with DATABASE_URL starts from the newest snapshot ` +
        `(${newest.sha256.slice(0, 12)}, published ${newest.published_at}), which would drop them. Nothing was ` +
        `imported. Move ${file} aside (it keeps them) and run the import again; then import ${names} again from ` +
        `the files in its archive, with DATABASE_URL, to publish them`,
    );
    this.name = "UnpublishedStatesError";
  }
}

/**
 * The states `file` holds newer than `newest` does, or that it lacks: what starting from `newest` would drop.
 * None when the file is a snapshot as published (marked), or cannot be read as a license database.
 */
export function unpublishedStates(file: string, newest: SnapshotRow): HeldState[] {
  if (!existsSync(file) || markedAs(file) !== null) return [];
  let held: HeldState[];
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      held = statesHeld(db);
    } finally {
      db.close();
    }
  } catch {
    return [];
  }
  const published = new Map((JSON.parse(newest.states) as HeldState[]).map((s) => [s.state, s]));
  return held.filter((local) => {
    const there = published.get(local.state);
    if (!there) return local.records > 0;
    return local.as_of !== null && (there.as_of === null || local.as_of > there.as_of);
  });
}

/**
 * An import's turn with DATABASE_URL: the nodes' sync lock, waited for, and `file` made the newest published
 * snapshot, so that what the import publishes holds what every sync and import published before it, and no sync
 * publishes over it from an older start. `say` gets a line for each of those it had to do. Refused
 * (UnpublishedStatesError, the lock let go) when `file` holds states the newest snapshot would drop: they may be
 * the only copy of an operator's work, and an import that published without them would take them from every node.
 */
export async function takeImportTurn(
  databaseUrl: string,
  file: string,
  say: (line: string) => void,
): Promise<ImportTurn> {
  // Held past this function, across the import: the turn's end lets it go.
  const lock = (await takeLock(databaseUrl, NODE_SYNC_LOCK, waitForTurn(databaseUrl, say)))!;
  const state = openStateDb({ url: databaseUrl, poolSize: 2 });
  let startedFrom: string | null;
  try {
    await migrateNodeSync(state);
    const newest = await newestSnapshot(state);
    const dropped = newest ? unpublishedStates(file, newest) : [];
    if (dropped.length) throw new UnpublishedStatesError(file, dropped, newest!);
    startedFrom = (await startFromNewestSnapshot(state, file, say))?.row.sha256 ?? null;
  } catch (error) {
    await lock.release();
    throw error;
  } finally {
    await state.close();
  }
  return {
    startedFrom,
    end: async (published) => {
      try {
        if (published) markAsSnapshot(file, published.sha256);
      } finally {
        await lock.release();
      }
    },
  };
}
