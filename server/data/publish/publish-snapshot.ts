import Database from "better-sqlite3";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { migrateStateDb, openStateDb, type StateDb } from "../../db/state-db.ts";
import { createLicenseRepo } from "../../store/license-repo.ts";
import type { Db } from "../../store/open-database.ts";
import {
  hashFile,
  pruneSnapshots,
  SNAPSHOT_MIGRATIONS,
  SNAPSHOT_TABLE_PREFIX,
  StaleStartError,
  storeSnapshot,
  type SnapshotRow,
} from "../../store/snapshots/snapshot-store.ts";

/** How long a replaced snapshot stays fetchable (SNAPSHOT_GRACE_MINUTES). */
export const DEFAULT_GRACE_MINUTES = 60;

export interface PublishOptions {
  /** Replaced snapshots older than this are removed (the newest never is). */
  graceMs?: number;
  now?: () => Date;
  /** The snapshot `db` started from (null: none): refused when another was published since (StaleStartError). */
  startedFrom?: string | null;
}

export interface Published {
  row: SnapshotRow;
  /** False when the same content was already published: it is the newest again, stored once. */
  stored: boolean;
  pruned: string[];
}

/**
 * Publishes what the license database holds now as an immutable snapshot in PostgreSQL, for every service node
 * to fetch: a consistent copy (VACUUM INTO reads in one transaction, so an import under way is either all in
 * or not at all), without the API keys, named by its SHA-256. Then removes the snapshots past their grace.
 */
export async function publishSnapshot(state: StateDb, db: Db, options: PublishOptions = {}): Promise<Published> {
  const copy = join(dirname(db.name), `.${basename(db.name)}.publish-${process.pid}-${randomBytes(4).toString("hex")}`);
  try {
    db.prepare("VACUUM INTO ?").run(copy);
    const states = withoutKeys(copy);
    const { sha256, bytes } = await hashFile(copy);
    await migrateStateDb(state, SNAPSHOT_TABLE_PREFIX, SNAPSHOT_MIGRATIONS);
    const { row, stored } = await storeSnapshot(
      state,
      { path: copy, sha256, bytes, states },
      { now: options.now, startedFrom: options.startedFrom },
    );
    const graceMs = options.graceMs ?? DEFAULT_GRACE_MINUTES * 60_000;
    const pruned = await pruneSnapshots(state, graceMs, (options.now ?? (() => new Date()))());
    return { row, stored, pruned };
  } finally {
    rmSync(copy, { force: true });
  }
}

/**
 * Drops the API keys from the copy (with DATABASE_URL they live in PostgreSQL; a snapshot is copied to every
 * node) and leaves it in rollback-journal mode, so that a node opening it read-only never changes a byte of it.
 * Returns what it holds, as the snapshots table keeps it.
 */
function withoutKeys(file: string): string {
  const copy = new Database(file);
  try {
    copy.pragma("journal_mode = DELETE");
    // Zeroed, not just unlinked: a key's hash must not survive in a free page.
    copy.pragma("secure_delete = ON");
    copy.exec("DELETE FROM api_keys");
    return JSON.stringify(statesHeld(copy));
  } finally {
    copy.close();
  }
}

/** What a snapshot holds, as the snapshots table keeps it: each state's records and newest source's date. */
export interface HeldState {
  state: string;
  records: number;
  as_of: string | null;
}

/** What a license database holds, state by state. */
export function statesHeld(db: Db): HeldState[] {
  return createLicenseRepo(db)
    .coverage()
    .map((c) => ({
      state: c.state,
      records: c.records,
      as_of: c.sources.reduce<string | null>((max, s) => (s.as_of && (!max || s.as_of > max) ? s.as_of : max), null),
    }));
}

/** SNAPSHOT_GRACE_MINUTES, in milliseconds; the default when unset. */
export function graceFromEnv(env: NodeJS.ProcessEnv): number {
  const text = env.SNAPSHOT_GRACE_MINUTES?.trim();
  if (!text) return DEFAULT_GRACE_MINUTES * 60_000;
  if (!/^\d+(\.\d+)?$/.test(text)) {
    throw new Error(`SNAPSHOT_GRACE_MINUTES must be a number of minutes, not "${text}"`);
  }
  return Number(text) * 60_000;
}

/**
 * What `npm run import` and `npm run sync` do once they have finished, with DATABASE_URL set: publish the
 * database for the service nodes, and say so in a line. False (with what to do on stderr) when it failed.
 */
export async function publishAfterWrite(
  db: Db,
  databaseUrl: string,
  env: NodeJS.ProcessEnv,
  onPublished?: (row: SnapshotRow) => void,
  startedFrom?: string | null,
): Promise<boolean> {
  let state: StateDb | undefined;
  try {
    const graceMs = graceFromEnv(env);
    state = openStateDb({ url: databaseUrl, poolSize: 2 });
    const { row, stored, pruned } = await publishSnapshot(state, db, { graceMs, startedFrom });
    const size = `${(row.bytes / 1_048_576).toFixed(1)} MB`;
    console.error(
      `${stored ? "published" : "published again (unchanged)"} snapshot ${row.sha256.slice(0, 12)} (${size}) to ${state.label}` +
        (pruned.length ? `; removed ${pruned.length} older` : ""),
    );
    onPublished?.(row);
    return true;
  } catch (error) {
    if (error instanceof StaleStartError) {
      console.error(
        `error: ${db.name} was written, but ${error.message}. The service nodes keep serving snapshot ` +
          `${error.newest.sha256.slice(0, 12)}. Run the same command again: it starts from that snapshot`,
      );
      return false;
    }
    console.error(
      `error: ${db.name} was written, but publishing it for the service nodes failed (${(error as Error).message}): ` +
        `they keep serving the previous snapshot. Check DATABASE_URL and run the same command again ` +
        `(files already imported are not read again; the database is published at its end)`,
    );
    return false;
  } finally {
    await state?.close();
  }
}
