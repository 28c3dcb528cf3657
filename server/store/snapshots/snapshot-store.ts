import { sql, type Generated, type Kysely } from "kysely";
import { createHash } from "node:crypto";
import { createReadStream, statSync } from "node:fs";
import { lockForTransaction } from "../../db/advisory-lock.ts";
import type { MigrationSet, StateDb } from "../../db/state-db.ts";

/** The channel a publish is announced on; its payload is the snapshot's SHA-256. */
export const SNAPSHOT_CHANNEL = "lls_snapshot";

/** The migrations' own table is `snapshots_migrations`. */
export const SNAPSHOT_TABLE_PREFIX = "snapshots";

// Large-object reads and writes go in parts of this size: each part is one round trip and one buffer.
const PART_BYTES = 1 << 20;

/** A published snapshot of the license database, as every service node sees it. */
export interface SnapshotRow {
  sha256: string;
  /** The large object holding the bytes. */
  oid: number;
  bytes: number;
  /** What it holds, as JSON: [{ state, records, as_of }]. */
  states: string;
  created_at: string;
  /** The last time it was published: the same content published again becomes the newest once more. */
  published_at: string;
}

interface SnapshotTables {
  snapshots: SnapshotRow & { id: Generated<number> };
}

// Snapshots exist only with DATABASE_URL (PostgreSQL): large objects have no SQLite counterpart.
export const SNAPSHOT_MIGRATIONS: MigrationSet = {
  "2026-11-26-snapshots": () => ({
    async up(db) {
      await db.schema
        .createTable("snapshots")
        .addColumn("sha256", "text", (c) => c.primaryKey())
        // The publish order: a new publish takes the sequence's next value, whatever the publishers' clocks say.
        .addColumn("id", "bigserial", (c) => c.notNull().unique())
        .addColumn("oid", "bigint", (c) => c.notNull())
        .addColumn("bytes", "bigint", (c) => c.notNull())
        .addColumn("states", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("published_at", "text", (c) => c.notNull())
        .execute();
    },
  }),
};

function tables(state: StateDb): Kysely<SnapshotTables> {
  if (state.backend !== "postgres") {
    throw new Error("snapshots are kept in PostgreSQL: set DATABASE_URL to a postgres:// URL");
  }
  return state.db as Kysely<SnapshotTables>;
}

const COLUMNS = ["sha256", "oid", "bytes", "states", "created_at", "published_at"] as const;

/** The newest published snapshot, or null when none is. */
export async function newestSnapshot(state: StateDb): Promise<SnapshotRow | null> {
  const row = await tables(state)
    .selectFrom("snapshots")
    .select(COLUMNS)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ?? null;
}

/** Every snapshot kept, newest first. */
export async function listSnapshots(state: StateDb): Promise<SnapshotRow[]> {
  return tables(state).selectFrom("snapshots").select(COLUMNS).orderBy("id", "desc").execute();
}

export interface StoreOptions {
  now?: () => Date;
  /**
   * The fence: the snapshot the publisher's file started from (null: none was published then). The publish is
   * refused when another is the newest by the time it commits, since it would serve an older start over what that
   * one added. Unset: published whatever is newest.
   */
  startedFrom?: string | null;
}

/** A publish refused by the fence: another snapshot was published after the publisher's file started. */
export class StaleStartError extends Error {
  constructor(
    readonly startedFrom: string | null,
    readonly newest: { sha256: string; published_at: string },
  ) {
    const from = startedFrom ? `snapshot ${startedFrom.slice(0, 12)}` : "no snapshot";
    super(
      `snapshot ${newest.sha256.slice(0, 12)} was published at ${newest.published_at}, after this database started ` +
        `from ${from}: publishing it would take away what that snapshot added, so it was not published`,
    );
    this.name = "StaleStartError";
  }
}

export interface StoreResult {
  /** False when the same content was already kept: it is published again, not stored twice. */
  stored: boolean;
  row: SnapshotRow;
}

/**
 * Stores a file as a snapshot named by its SHA-256 and announces it, in one transaction: nodes are told of it
 * only once all its bytes are there, and an interrupted upload leaves neither a row nor a large object behind.
 */
export async function storeSnapshot(
  state: StateDb,
  file: { path: string; sha256: string; bytes: number; states: string },
  options: StoreOptions = {},
): Promise<StoreResult> {
  const db = tables(state);
  const now = options.now ?? (() => new Date());
  const fence = async (trx: Kysely<SnapshotTables>) => {
    if (options.startedFrom === undefined) return;
    const newest = await trx
      .selectFrom("snapshots")
      .select(["sha256", "published_at"])
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
    if ((newest?.sha256 ?? null) !== options.startedFrom) throw new StaleStartError(options.startedFrom, newest!);
  };
  const republish = async (trx: Kysely<SnapshotTables>) => {
    await fence(trx);
    const row = await trx
      .updateTable("snapshots")
      .set({ id: sql<number>`nextval(pg_get_serial_sequence('snapshots', 'id'))`, published_at: now().toISOString() })
      .where("sha256", "=", file.sha256)
      .returning(COLUMNS)
      .executeTakeFirst();
    if (row) await sql`SELECT pg_notify(${SNAPSHOT_CHANNEL}, ${file.sha256})`.execute(trx);
    return row;
  };

  const known = await db.transaction().execute(async (trx) => {
    await lockForTransaction(trx, SNAPSHOT_CHANNEL);
    return republish(trx);
  });
  if (known) return { stored: false, row: known };

  try {
    const row = await db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ oid: number }>`SELECT lo_create(0) AS oid`.execute(trx);
      const oid = rows[0]!.oid;
      let offset = 0;
      for await (const part of createReadStream(file.path, { highWaterMark: PART_BYTES }) as AsyncIterable<Buffer>) {
        await sql`SELECT lo_put(${oid}::oid, ${offset}::bigint, ${part})`.execute(trx);
        offset += part.length;
      }
      if (offset !== file.bytes) throw new Error(`${file.path} changed while it was published`);
      // Taken once the bytes are in: publishes are numbered in the order they commit, uploads still run side by side.
      await lockForTransaction(trx, SNAPSHOT_CHANNEL);
      await fence(trx);
      const at = now().toISOString();
      const inserted = await trx
        .insertInto("snapshots")
        .values({ sha256: file.sha256, oid, bytes: file.bytes, states: file.states, created_at: at, published_at: at })
        .onConflict((c) => c.column("sha256").doNothing())
        .returning(COLUMNS)
        .executeTakeFirst();
      // Another publisher stored the same bytes meanwhile: this upload goes with the rollback.
      if (!inserted) throw new SameContent();
      await sql`SELECT pg_notify(${SNAPSHOT_CHANNEL}, ${file.sha256})`.execute(trx);
      return inserted;
    });
    return { stored: true, row };
  } catch (error) {
    if (!(error instanceof SameContent)) throw error;
    const row = await db.transaction().execute(async (trx) => {
      await lockForTransaction(trx, SNAPSHOT_CHANNEL);
      return republish(trx);
    });
    if (!row) throw new Error(`snapshot ${file.sha256} was pruned while it was published again: publish once more`);
    return { stored: false, row };
  }
}

class SameContent extends Error {}

/** The snapshot's bytes, part by part, in order. */
export async function* readSnapshot(state: StateDb, row: Pick<SnapshotRow, "oid" | "bytes">): AsyncGenerator<Buffer> {
  const db = tables(state);
  for (let offset = 0; offset < row.bytes; offset += PART_BYTES) {
    const { rows } = await sql<{
      part: Buffer;
    }>`SELECT lo_get(${row.oid}::oid, ${offset}::bigint, ${PART_BYTES}) AS part`.execute(db);
    const part = rows[0]!.part;
    if (part.length === 0) return;
    yield part;
  }
}

/**
 * Removes the snapshots published more than `graceMs` ago, the newest always kept: a node that was still
 * fetching one of them has had that long. Returns the SHA-256 of each removed.
 */
export async function pruneSnapshots(state: StateDb, graceMs: number, now: Date = new Date()): Promise<string[]> {
  const before = new Date(now.getTime() - graceMs).toISOString();
  return tables(state)
    .transaction()
    .execute(async (trx) => {
      await lockForTransaction(trx, SNAPSHOT_CHANNEL);
      const gone = await trx
        .deleteFrom("snapshots")
        .where("published_at", "<", before)
        .where("id", "<", (eb) => eb.selectFrom("snapshots").select(eb.fn.max("id").as("newest")))
        .returning(["sha256", "oid"])
        .execute();
      for (const { oid } of gone) await sql`SELECT lo_unlink(${oid}::oid)`.execute(trx);
      return gone.map((g) => g.sha256);
    });
}

/** A snapshot file's SHA-256, the name every node knows it by, and its size. */
export async function hashFile(path: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash("sha256");
  for await (const part of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>)
    hash.update(part);
  return { sha256: hash.digest("hex"), bytes: statSync(path).size };
}
