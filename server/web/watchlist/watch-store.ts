import { sql, type Generated, type Kysely, type Selectable } from "kysely";
import type { Provenance } from "../../../src/contract/envelopes.ts";
import type { License } from "../../../src/contract/license.ts";
import type {
  WatchAddResult,
  WatchChange,
  WatchCheck,
  WatchDelivery,
  WatchEntry,
  WatchField,
} from "../../../src/contract/watchlist.ts";
import { idType, type MigrationSet, type StateDb } from "../../db/state-db.ts";

/**
 * The team's watchlist in the app's state database (SQLite or PostgreSQL): what is watched and what was last
 * seen of it, every change a check found, the checks, and the alerts still to deliver (an outbox, so a restart
 * loses none). Several app nodes share it: starting a check, answering for a license and sending an alert are
 * each made once, whichever node gets there first.
 */
export const WATCH_MIGRATIONS: MigrationSet = {
  // The tables as the SQLite file has held them since the watchlist began: an existing app.sqlite is adopted as is.
  "2026-11-26-watchlist": (backend) => ({
    up: async (db) => {
      const bigint = backend === "postgres" ? "bigint" : "integer";
      await db.schema
        .createTable("watched")
        .ifNotExists()
        .addColumn("state", "text", (c) => c.notNull())
        .addColumn("license", "text", (c) => c.notNull())
        .addColumn("added_at", "text", (c) => c.notNull())
        .addColumn("checked_at", "text")
        .addColumn("outcome", "text", (c) => c.notNull())
        .addColumn("record", "text")
        .addColumn("provenance", "text")
        // The check that last answered for it: a check resumed elsewhere skips what it already did.
        .addColumn("check_id", bigint, (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint("watched_pkey", ["state", "license"])
        .$call((t) => (backend === "sqlite" ? t.modifyEnd(sql`WITHOUT ROWID`) : t))
        .execute();
      await db.schema
        .createTable("changes")
        .ifNotExists()
        .addColumn("id", idType(backend), (c) => c.primaryKey())
        .addColumn("check_id", bigint, (c) => c.notNull())
        .addColumn("state", "text", (c) => c.notNull())
        .addColumn("license", "text", (c) => c.notNull())
        .addColumn("field", "text", (c) => c.notNull())
        .addColumn("from_value", "text")
        .addColumn("to_value", "text")
        .addColumn("detected_at", "text", (c) => c.notNull())
        .addColumn("seen", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex("changes_unseen").ifNotExists().on("changes").columns(["seen", "id"]).execute();
      await db.schema.createIndex("changes_of_check").ifNotExists().on("changes").column("check_id").execute();
      await db.schema
        .createIndex("changes_of_license")
        .ifNotExists()
        .on("changes")
        .columns(["state", "license", "seen"])
        .execute();
      await db.schema
        .createTable("checks")
        .ifNotExists()
        .addColumn("id", idType(backend), (c) => c.primaryKey())
        .addColumn("trigger", "text", (c) => c.notNull())
        .addColumn("started_at", "text", (c) => c.notNull())
        .addColumn("finished_at", "text")
        .addColumn("checked", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("total", "integer", (c) => c.notNull())
        .addColumn("changes", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("error", "text")
        .execute();
      await db.schema
        .createTable("deliveries")
        .ifNotExists()
        .addColumn("id", idType(backend), (c) => c.primaryKey())
        // One per check and kind, one expiring digest per day: made twice, it is still sent once.
        .addColumn("key", "text", (c) => c.notNull().unique())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("subject", "text", (c) => c.notNull())
        .addColumn("payload", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("last_error", "text")
        .addColumn("next_attempt_at", "text")
        .addColumn("delivered_at", "text")
        .execute();
      await db.schema
        .createIndex("deliveries_due")
        .ifNotExists()
        .on("deliveries")
        .columns(["delivered_at", "next_attempt_at"])
        .execute();
      await db.schema
        .createTable("meta")
        .ifNotExists()
        .addColumn("name", "text", (c) => c.primaryKey())
        .addColumn("value", "text", (c) => c.notNull())
        .$call((t) => (backend === "sqlite" ? t.modifyEnd(sql`WITHOUT ROWID`) : t))
        .execute();
    },
  }),
  // Several nodes: one unfinished check at a time, and a lease on an alert being sent.
  "2026-11-26-watchlist-nodes": () => ({
    up: async (db) => {
      // Only one check was ever left open; should a file hold more, the newest is the one resumed.
      await sql`UPDATE checks SET finished_at = started_at, error = coalesce(error, 'superseded by a later check')
        WHERE finished_at IS NULL AND id < (SELECT max(id) FROM checks WHERE finished_at IS NULL)`.execute(db);
      await sql`CREATE UNIQUE INDEX IF NOT EXISTS checks_one_unfinished ON checks ((finished_at IS NULL))
        WHERE finished_at IS NULL`.execute(db);
      await db.schema.alterTable("deliveries").addColumn("claimed_until", "text").execute();
    },
  }),
};

export type DeliveryKind = WatchDelivery["kind"];

export interface StoredDelivery {
  id: number;
  key: string;
  kind: DeliveryKind;
  subject: string;
  payload: string;
  created_at: string;
  attempts: number;
}

/** What a check learnt of one license, to be written with the changes it found. */
export interface Answer {
  state: string;
  license: string;
  outcome: WatchEntry["outcome"];
  record: License | null;
  provenance: Provenance | null;
}

export interface NewChange {
  state: string;
  license: string;
  field: WatchField;
  from: string | null;
  to: string | null;
}

export interface NewAlert {
  key: string;
  kind: DeliveryKind;
  subject: string;
  payload: string;
}

interface WatchTables {
  watched: {
    state: string;
    license: string;
    added_at: string;
    checked_at: string | null;
    outcome: WatchEntry["outcome"];
    record: string | null;
    provenance: string | null;
    check_id: Generated<number>;
  };
  changes: {
    id: Generated<number>;
    check_id: number;
    state: string;
    license: string;
    field: WatchField;
    from_value: string | null;
    to_value: string | null;
    detected_at: string;
    seen: Generated<number>;
  };
  checks: {
    id: Generated<number>;
    trigger: WatchCheck["trigger"];
    started_at: string;
    finished_at: string | null;
    checked: Generated<number>;
    total: number;
    changes: Generated<number>;
    error: string | null;
  };
  deliveries: {
    id: Generated<number>;
    key: string;
    kind: DeliveryKind;
    subject: string;
    payload: string;
    created_at: string;
    attempts: Generated<number>;
    last_error: string | null;
    next_attempt_at: string | null;
    delivered_at: string | null;
    claimed_until: string | null;
  };
  meta: { name: string; value: string };
}

type Db = Kysely<WatchTables>;

type ChangeRow = Selectable<WatchTables["changes"]>;

// Rows a statement at most: 7 parameters each stay well within SQLite's and PostgreSQL's limits.
const CHUNK = 500;

const parsed = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

/** Opens the watchlist's store over a migrated state database (WATCH_MIGRATIONS); closing that is the caller's. */
export function openWatchStore(state: StateDb) {
  const db = state.db as Db;

  // A watched license with the count of its changes not yet seen.
  const withUnseen = (q: Db) =>
    q
      .selectFrom("watched as w")
      .select(["w.state", "w.license", "w.added_at", "w.checked_at", "w.outcome", "w.record", "w.provenance"])
      .select((eb) =>
        eb
          .selectFrom("changes as c")
          .select(sql<number>`count(*)`.as("n"))
          .whereRef("c.state", "=", "w.state")
          .whereRef("c.license", "=", "w.license")
          .where("c.seen", "=", 0)
          .as("unseen"),
      );
  type WatchedRow = Awaited<ReturnType<ReturnType<typeof withUnseen>["executeTakeFirstOrThrow"]>>;
  const entryOf = (row: WatchedRow): WatchEntry => ({
    state: row.state,
    license: row.license,
    added_at: row.added_at,
    checked_at: row.checked_at,
    outcome: row.outcome,
    record: parsed<License>(row.record),
    provenance: parsed<Provenance>(row.provenance),
    unseen: Number(row.unseen ?? 0),
  });
  const count = async (q: Db = db) =>
    (
      await q
        .selectFrom("watched")
        .select(sql<number>`count(*)`.as("n"))
        .executeTakeFirstOrThrow()
    ).n;
  const unfinishedCheck = async (q: Db = db): Promise<WatchCheck | null> =>
    (await q
      .selectFrom("checks")
      .selectAll()
      .where("finished_at", "is", null)
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst()) ?? null;
  const setMeta = (q: Db, name: string, value: string) =>
    q
      .insertInto("meta")
      .values({ name, value })
      .onConflict((oc) => oc.column("name").doUpdateSet({ value }))
      .execute();
  const getMeta = async (name: string) =>
    (await db.selectFrom("meta").select("value").where("name", "=", name).executeTakeFirst())?.value ?? null;
  const progress = (q: Db, checkId: number, checked: number, error: string | null) =>
    q
      .updateTable("checks")
      .set((eb) => ({
        checked: eb("checked", "+", checked),
        error: eb.fn.coalesce("error", sql<string | null>`${error}`),
      }))
      .where("id", "=", checkId)
      .execute();

  return {
    count: () => count(),
    entries: async (): Promise<WatchEntry[]> =>
      (await withUnseen(db).orderBy("w.state").orderBy("w.license").execute()).map(entryOf),
    entry: async (state: string, license: string): Promise<WatchEntry | null> => {
      const row = await withUnseen(db).where("w.state", "=", state).where("w.license", "=", license).executeTakeFirst();
      return row ? entryOf(row) : null;
    },

    /** Which of these numbers of one state are watched (a list of 10,000 is asked in a few queries, not 10,000). */
    async watchedOf(state: string, numbers: readonly string[]) {
      const watched = new Set<string>();
      for (let start = 0; start < numbers.length; start += CHUNK) {
        const rows = await db
          .selectFrom("watched")
          .select("license")
          .where("state", "=", state)
          .where("license", "in", numbers.slice(start, start + CHUNK))
          .execute();
        for (const row of rows) watched.add(row.license);
      }
      return watched;
    },

    /** Adds the answers not yet watched; each answer's outcome says which were added. */
    add: (answers: readonly Answer[], at: string) =>
      db.transaction().execute(async (trx) => {
        const added = new Set<string>();
        for (let start = 0; start < answers.length; start += CHUNK) {
          const rows = await trx
            .insertInto("watched")
            .values(
              answers.slice(start, start + CHUNK).map((a) => ({
                state: a.state,
                license: a.license,
                added_at: at,
                checked_at: at,
                outcome: a.outcome,
                record: a.record && JSON.stringify(a.record),
                provenance: a.provenance && JSON.stringify(a.provenance),
              })),
            )
            .onConflict((oc) => oc.doNothing())
            .returning(["state", "license"])
            .execute();
          for (const row of rows) added.add(`${row.state}/${row.license}`);
        }
        const outcomes = new Map<string, WatchAddResult["outcome"]>();
        for (const a of answers) {
          const key = `${a.state}/${a.license}`;
          outcomes.set(key, added.has(key) ? "added" : "already watched");
        }
        return outcomes;
      }),
    remove: async (state: string, license: string) =>
      Number(
        (await db.deleteFrom("watched").where("state", "=", state).where("license", "=", license).executeTakeFirst())
          .numDeletedRows,
      ) === 1,

    /** The last record seen of each of these licenses (`state/license`), for the alerts that name them. */
    async recordsOf(keys: readonly { state: string; license: string }[]) {
      const records = new Map<string, License | null>();
      const byState = new Map<string, Set<string>>();
      for (const k of keys) byState.set(k.state, (byState.get(k.state) ?? new Set()).add(k.license));
      for (const [state, set] of byState) {
        const numbers = [...set];
        for (let start = 0; start < numbers.length; start += CHUNK) {
          const rows = await db
            .selectFrom("watched")
            .select(["license", "record"])
            .where("state", "=", state)
            .where("license", "in", numbers.slice(start, start + CHUNK))
            .execute();
          for (const row of rows) records.set(`${state}/${row.license}`, parsed<License>(row.record));
        }
      }
      return records;
    },
    unseenChanges: async () =>
      (await db.selectFrom("changes").selectAll().where("seen", "=", 0).orderBy("id", "desc").execute()).map(changeOf),
    changesOf: async (checkId: number) =>
      (await db.selectFrom("changes").selectAll().where("check_id", "=", checkId).orderBy("id").execute()).map(
        changeOf,
      ),
    /** Marks seen the changes up to `upTo`: one a check found after the clerk's page was drawn stays unseen. */
    markSeen: (upTo: number, at: string) =>
      db.transaction().execute(async (trx) => {
        await trx.updateTable("changes").set({ seen: 1 }).where("seen", "=", 0).where("id", "<=", upTo).execute();
        await setMeta(trx, "looked_at", at);
      }),
    lookedAt: () => getMeta("looked_at"),

    /**
     * The unfinished check (one a stopped node left, or one another node just started), else a new one over
     * every watched license: two nodes asking at once get the same check (one unfinished check, a unique index).
     */
    async beginCheck(trigger: WatchCheck["trigger"], at: string): Promise<WatchCheck> {
      for (;;) {
        const open = await unfinishedCheck();
        if (open) return open;
        const total = await count();
        const made = await db
          .insertInto("checks")
          .values({ trigger, started_at: at, total })
          .onConflict((oc) => oc.doNothing())
          .returningAll()
          .executeTakeFirst();
        if (made) return made;
        // Another node's check came first: answer that one (unless it already ended, then look again).
      }
    },
    check: async (id: number): Promise<WatchCheck | null> =>
      (await db.selectFrom("checks").selectAll().where("id", "=", id).executeTakeFirst()) ?? null,
    // The checks table's columns are the contract's check, name for name.
    unfinishedCheck: () => unfinishedCheck(),
    lastCheck: async (): Promise<WatchCheck | null> =>
      (await db.selectFrom("checks").selectAll().orderBy("id", "desc").limit(1).executeTakeFirst()) ?? null,
    /** The watched licenses this check has not answered for yet, with what was last seen of each. */
    toCheck: async (checkId: number) =>
      (
        await db
          .selectFrom("watched")
          .select(["state", "license", "record", "provenance", "outcome"])
          .where("check_id", "<>", checkId)
          .orderBy("state")
          .orderBy("license")
          .execute()
      ).map((row) => ({
        state: row.state,
        license: row.license,
        outcome: row.outcome,
        record: parsed<License>(row.record),
        provenance: parsed<Provenance>(row.provenance),
      })),

    /**
     * One batch of a check, in one transaction: what was seen now and the changes from before, or neither. A license
     * another runner of the same check answered for meanwhile is left as that one wrote it, its changes not repeated.
     */
    recordAnswers: (
      checkId: number,
      at: string,
      answers: readonly Answer[],
      changes: readonly NewChange[],
      error: string | null,
    ) =>
      db.transaction().execute(async (trx) => {
        const answered = new Set<string>();
        for (const a of answers) {
          const result = await trx
            .updateTable("watched")
            .set({
              checked_at: at,
              outcome: a.outcome,
              record: a.record && JSON.stringify(a.record),
              provenance: a.provenance && JSON.stringify(a.provenance),
              check_id: checkId,
            })
            .where("state", "=", a.state)
            .where("license", "=", a.license)
            .where("check_id", "<>", checkId)
            .executeTakeFirst();
          if (Number(result.numUpdatedRows) === 1) answered.add(`${a.state}/${a.license}`);
        }
        const fresh = changes.filter((c) => answered.has(`${c.state}/${c.license}`));
        if (fresh.length) {
          await trx
            .insertInto("changes")
            .values(
              fresh.map((c) => ({
                check_id: checkId,
                state: c.state,
                license: c.license,
                field: c.field,
                from_value: c.from,
                to_value: c.to,
                detected_at: at,
              })),
            )
            .execute();
        }
        await progress(trx, checkId, answered.size, error);
      }),
    /** Licenses a check could not ask about (the service failed): passed over, their last answer kept. */
    passOver: (checkId: number, keys: readonly { state: string; license: string }[], error: string) =>
      db.transaction().execute(async (trx) => {
        let passed = 0;
        for (const k of keys) {
          const result = await trx
            .updateTable("watched")
            .set({ check_id: checkId })
            .where("state", "=", k.state)
            .where("license", "=", k.license)
            .where("check_id", "<>", checkId)
            .executeTakeFirst();
          passed += Number(result.numUpdatedRows);
        }
        await progress(trx, checkId, passed, error);
      }),

    /**
     * Ends a check and queues its alerts in the same transaction: a check is finished with its alerts or not at all,
     * and once: the ids of the deliveries queued, or null when another node finished it first.
     */
    finishCheck: (checkId: number, at: string, alerts: readonly NewAlert[]) =>
      db.transaction().execute(async (trx) => {
        const finished = await trx
          .updateTable("checks")
          .set((eb) => ({
            finished_at: at,
            changes: eb
              .selectFrom("changes")
              .select(sql<number>`count(*)`.as("n"))
              .where("changes.check_id", "=", checkId),
          }))
          .where("id", "=", checkId)
          .where("finished_at", "is", null)
          .executeTakeFirst();
        if (Number(finished.numUpdatedRows) !== 1) return null;
        const ids: number[] = [];
        for (const alert of alerts) {
          const row = await trx
            .insertInto("deliveries")
            .values({ ...alert, created_at: at, next_attempt_at: at })
            .onConflict((oc) => oc.doNothing())
            .returning("id")
            .executeTakeFirst();
          if (row) ids.push(row.id);
        }
        return ids;
      }),
    hasDelivery: async (key: string) =>
      (await db.selectFrom("deliveries").select("id").where("key", "=", key).executeTakeFirst()) !== undefined,
    /** What waits to be sent, with the time each is due. */
    pending: async () =>
      (
        await db
          .selectFrom("deliveries")
          .select(["id", "next_attempt_at"])
          .where("delivered_at", "is", null)
          .where("next_attempt_at", "is not", null)
          .orderBy("id")
          .execute()
      ).map((row) => ({ id: row.id, due: row.next_attempt_at! })),
    /**
     * Takes one delivery due by `now` to send until `until`, unless it is delivered, given up, not due, or held by
     * another sender's unexpired claim: two nodes never send the same row at once.
     */
    claim: async (id: number, now: string, until: string): Promise<StoredDelivery | null> =>
      (await db
        .updateTable("deliveries")
        .set({ claimed_until: until })
        .where("id", "=", id)
        .where("delivered_at", "is", null)
        .where("next_attempt_at", "is not", null)
        .where("next_attempt_at", "<=", now)
        .where((eb) => eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<", now)]))
        .returning(["id", "key", "kind", "subject", "payload", "created_at", "attempts"])
        .executeTakeFirst()) ?? null,
    /** When an undelivered row may next be claimed (its due time, or when another sender's claim lapses); null when never. */
    dueAt: async (id: number): Promise<string | null> => {
      const row = await db
        .selectFrom("deliveries")
        .select(["next_attempt_at", "claimed_until"])
        .where("id", "=", id)
        .where("delivered_at", "is", null)
        .where("next_attempt_at", "is not", null)
        .executeTakeFirst();
      if (!row) return null;
      return row.claimed_until && row.claimed_until > row.next_attempt_at! ? row.claimed_until : row.next_attempt_at;
    },
    delivered: (id: number, at: string) =>
      db
        .updateTable("deliveries")
        .set((eb) => ({ delivered_at: at, attempts: eb("attempts", "+", 1), claimed_until: null }))
        .where("id", "=", id)
        .execute(),
    failed: (id: number, error: string, retryAt: string | null) =>
      db
        .updateTable("deliveries")
        .set((eb) => ({
          attempts: eb("attempts", "+", 1),
          last_error: error,
          next_attempt_at: retryAt,
          claimed_until: null,
        }))
        .where("id", "=", id)
        .execute(),
    /** A restart may be the fix (a corrected URL, a mail server back): what waits for a retry is due at once. */
    retryPending: (at: string) =>
      db
        .updateTable("deliveries")
        .set({ next_attempt_at: at })
        .where("delivered_at", "is", null)
        .where("next_attempt_at", "is not", null)
        .where("next_attempt_at", ">", at)
        .execute(),
    undelivered: async (): Promise<WatchDelivery[]> =>
      db
        .selectFrom("deliveries")
        .select(["kind", "subject", "created_at", "attempts", "last_error", "next_attempt_at"])
        .where("delivered_at", "is", null)
        .orderBy("id")
        .execute(),
    meta: (name: string) => getMeta(name),
    setMeta: (name: string, value: string) => setMeta(db, name, value),
  };
}

export type WatchStore = ReturnType<typeof openWatchStore>;

function changeOf(row: ChangeRow): Omit<WatchChange, "link"> {
  return {
    id: row.id,
    state: row.state,
    license: row.license,
    field: row.field,
    from: row.from_value,
    to: row.to_value,
    detected_at: row.detected_at,
    seen: row.seen === 1,
  };
}
