import { createHash } from "node:crypto";
import { sql, type Kysely } from "kysely";
import {
  CHECK_ACTIONS,
  CHECKS_PAGE_SIZE,
  type ChainState,
  type LogAction,
  type LogEntry,
} from "../../../src/contract/checks.ts";
import type { Provenance } from "../../../src/contract/envelopes.ts";
import type { MigrationSet, StateDb } from "../../db/state-db.ts";

export const GENESIS_HASH = "0".repeat(64);

interface ChecksTables {
  log_entries: LogEntry;
  log_head: { one: number; entries: number; hash: string };
}

/**
 * The record of checks: one table of entries chained by SHA-256, and a head row naming the newest, so that
 * altering, removing or reordering an entry (the newest too) shows when the chain is walked.
 */
export const CHECKS_MIGRATIONS: MigrationSet = {
  // IF NOT EXISTS throughout: an app.sqlite made before the migrations is adopted as it is.
  "2026-11-26-checks-log": (backend) => ({
    async up(db: Kysely<unknown>) {
      // Ids are the chain's own numbering (the head's count + 1), never the database's.
      const id = backend === "postgres" ? "bigint" : "integer";
      let entries = db.schema
        .createTable("log_entries")
        .ifNotExists()
        .addColumn("id", id, (c) => c.primaryKey())
        .addColumn("at", "text", (c) => c.notNull())
        .addColumn("zone", "text")
        .addColumn("action", "text", (c) => c.notNull());
      for (const column of [
        "user_email",
        "user_name",
        "user_role",
        "state",
        "license",
        "verdict",
        "reason",
        "record_json",
        "record_sha256",
        "provenance_json",
        "source_sha256",
        "as_of",
        "detail",
      ]) {
        entries = entries.addColumn(column, "text");
      }
      await entries
        .addColumn("app_version", "text", (c) => c.notNull())
        .addColumn("prev_hash", "text", (c) => c.notNull())
        .addColumn("hash", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("log_by_user")
        .ifNotExists()
        .on("log_entries")
        .columns(["user_email", "id"])
        .execute();
      await db.schema
        .createIndex("log_by_license")
        .ifNotExists()
        .on("log_entries")
        .columns(["state", "license", "id"])
        .execute();
      await db.schema.createIndex("log_by_at").ifNotExists().on("log_entries").column("at").execute();
      await db.schema
        .createTable("log_head")
        .ifNotExists()
        .addColumn("one", "integer", (c) => c.primaryKey().check(sql`one = 1`))
        .addColumn("entries", id, (c) => c.notNull())
        .addColumn("hash", "text", (c) => c.notNull())
        .execute();
      await sql`INSERT INTO log_head (one, entries, hash) VALUES (1, 0, ${GENESIS_HASH}) ON CONFLICT DO NOTHING`.execute(
        db,
      );
    },
  }),
  // What the clerk gave for a Verify row: a column of its own, null in every entry written before it.
  "2026-11-28-checks-given": () => ({
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("log_entries").addColumn("given_json", "text").execute();
    },
  }),
};

export interface NewLogEntry {
  action: LogAction;
  zone?: string | null;
  /** Who, as they are now; null for a failed sign-in of no account. */
  user: { email: string; name: string | null; role: string } | null;
  state?: string | null;
  license?: string | null;
  verdict?: LogEntry["verdict"];
  reason?: string | null;
  record_json?: string | null;
  provenance_json?: string | null;
  detail?: string | null;
  /** What the clerk gave (a GivenRow as JSON): a Verify row's. */
  given_json?: string | null;
}

export interface LogFilter {
  user?: string;
  state?: string;
  license?: string;
  verdict?: string;
  action?: string;
  /** UTC bounds on `at`: from inclusive, to exclusive (ISO timestamps). */
  from?: string;
  to?: string;
  /** Entries older than this id: the next page. */
  before?: number;
  /** CHECKS_PAGE_SIZE unless given. */
  limit?: number;
}

export interface LogPage {
  entries: LogEntry[];
  next_before: number | null;
  total: number;
}

// The order the hash reads an entry's fields in: changing it breaks every chain written before.
const HASHED_FIELDS = [
  "id",
  "at",
  "zone",
  "action",
  "user_email",
  "user_name",
  "user_role",
  "state",
  "license",
  "verdict",
  "reason",
  "record_json",
  "record_sha256",
  "provenance_json",
  "source_sha256",
  "as_of",
  "detail",
  "app_version",
] as const satisfies readonly (keyof LogEntry)[];

export function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/**
 * An entry's hash: the hash before it, then its fields as a JSON array in HASHED_FIELDS order, and after them what the
 * clerk gave where the entry holds it. An entry without it hashes as every entry did before it was kept, so the
 * chains written then still verify; one with it cannot lose it unseen.
 */
export function entryHash(entry: Omit<LogEntry, "hash" | "given_json"> & { given_json?: string | null }): string {
  const fields: unknown[] = HASHED_FIELDS.map((field) => entry[field]);
  if (entry.given_json != null) fields.push(entry.given_json);
  return sha256(`${entry.prev_hash}\n${JSON.stringify(fields)}`);
}

/**
 * What an entry showed, as one string: two checks with the same are the same thing seen again (the hour rule). The
 * record by its hash, the verdict and reason, and what the clerk gave, line included.
 */
export function shownKey(
  entry: Pick<LogEntry, "state" | "license" | "verdict" | "reason" | "record_sha256"> & {
    given_json?: string | null;
  },
): string {
  const { state, license, verdict, reason, record_sha256, given_json = null } = entry;
  return JSON.stringify([state, license, verdict, reason, record_sha256, given_json]);
}

/** Where the record came from, as the log keeps it: the source file's SHA-256 and the date it was true on. */
function sourceOf(provenanceJson: string | null): { source_sha256: string | null; as_of: string | null } {
  if (provenanceJson === null) return { source_sha256: null, as_of: null };
  const provenance = JSON.parse(provenanceJson) as Provenance;
  return { source_sha256: provenance.source.sha256, as_of: provenance.as_of ?? provenance.source.as_of };
}

export type ChecksLog = ReturnType<typeof createChecksLog>;

// Many rows per INSERT, few enough for SQLite's limit of bound values.
const INSERT_ROWS = 500;
// verify() walks the chain this many entries at a time: a long record is never held in memory whole.
const VERIFY_PAGE = 1000;
const ENTRY_COLUMNS = [...HASHED_FIELDS, "given_json", "prev_hash", "hash"] as const;

/** The record of checks in the app's database (`state`), migrated with CHECKS_MIGRATIONS. */
export function createChecksLog(
  state: StateDb,
  { appVersion, now = () => new Date() }: { appVersion: string; now?: () => Date },
) {
  const db = state.db as Kysely<ChecksTables>;
  // The newest head this process wrote or read: for a reader that cannot wait (the watchlist's digest).
  let seen: { entries: number; hash: string } | null = null;
  // Appends finish in any order: the newest is the one with the most entries.
  const remember = (head: { entries: number; hash: string }) => {
    if (!seen || head.entries >= seen.entries) seen = head;
  };

  const readHead = (q: Kysely<ChecksTables>) =>
    q.selectFrom("log_head").select(["entries", "hash"]).where("one", "=", 1).executeTakeFirst();

  async function write(trx: Kysely<ChecksTables>, entries: readonly NewLogEntry[]): Promise<LogEntry[]> {
    // The head's lock before reading it (a row lock on PostgreSQL, the write lock on SQLite): two nodes
    // appending at once take turns, so the chain never forks.
    await trx
      .updateTable("log_head")
      .set((eb) => ({ entries: eb.ref("entries") }))
      .where("one", "=", 1)
      .execute();
    const head = await readHead(trx);
    if (!head) {
      throw new Error("the record of checks has no head row (it was deleted): run npm run checks -- verify");
    }
    let { entries: id, hash: prev } = head;
    const at = now().toISOString();
    const written = entries.map((e) => {
      const record_json = e.record_json ?? null;
      const provenance_json = e.provenance_json ?? null;
      const unhashed: Omit<LogEntry, "hash"> = {
        id: ++id,
        at,
        zone: e.zone ?? null,
        action: e.action,
        user_email: e.user?.email ?? null,
        user_name: e.user?.name ?? null,
        user_role: e.user?.role ?? null,
        state: e.state ?? null,
        license: e.license ?? null,
        verdict: e.verdict ?? null,
        reason: e.reason ?? null,
        record_json,
        record_sha256: record_json === null ? null : sha256(record_json),
        provenance_json,
        ...sourceOf(provenance_json),
        detail: e.detail ?? null,
        given_json: e.given_json ?? null,
        app_version: appVersion,
        prev_hash: prev,
      };
      const entry: LogEntry = { ...unhashed, hash: entryHash(unhashed) };
      prev = entry.hash;
      return entry;
    });
    for (let start = 0; start < written.length; start += INSERT_ROWS) {
      const rows = written.slice(start, start + INSERT_ROWS);
      await trx
        .insertInto("log_entries")
        .values(rows.map((entry) => Object.fromEntries(ENTRY_COLUMNS.map((c) => [c, entry[c]])) as LogEntry))
        .execute();
    }
    await trx.updateTable("log_head").set({ entries: id, hash: prev }).where("one", "=", 1).execute();
    return written;
  }

  async function appendMany(entries: readonly NewLogEntry[]): Promise<LogEntry[]> {
    if (entries.length === 0) return [];
    const written = await db.transaction().execute((trx) => write(trx, entries));
    remember({ entries: written.at(-1)!.id, hash: written.at(-1)!.hash });
    return written;
  }

  function filtered(filter: LogFilter) {
    let query = db.selectFrom("log_entries");
    const add = (column: "user_email" | "state" | "license" | "verdict" | "action", value: string | undefined) => {
      if (value !== undefined && value !== "") query = query.where(column, "=", value);
    };
    add("user_email", filter.user);
    add("state", filter.state);
    add("license", filter.license);
    add("verdict", filter.verdict);
    add("action", filter.action);
    if (filter.from) query = query.where("at", ">=", filter.from);
    if (filter.to) query = query.where("at", "<", filter.to);
    return query;
  }

  /** The chain walked in id order inside one snapshot (`q`), so that appends meanwhile are not mistaken for tampering. */
  async function walk(q: Kysely<ChecksTables>): Promise<ChainState> {
    const checked_at = now().toISOString();
    const head = await readHead(q);
    let last = null as LogEntry | null;
    const broken = async (at: number, problem: string): Promise<ChainState> => {
      const { n } = await q.selectFrom("log_entries").select(q.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      const newest = await q.selectFrom("log_entries").select("hash").orderBy("id", "desc").limit(1).executeTakeFirst();
      return {
        ok: false,
        entries: n,
        head: newest?.hash ?? null,
        broken_at: at,
        problem: `entry ${at}: ${problem}`,
        checked_at,
      };
    };
    for (;;) {
      const page = await q
        .selectFrom("log_entries")
        .selectAll()
        .where("id", ">", last?.id ?? Number.MIN_SAFE_INTEGER)
        .orderBy("id")
        .limit(VERIFY_PAGE)
        .execute();
      for (const entry of page) {
        const expected = (last?.id ?? 0) + 1;
        const before = last ? `entry ${last.id}` : "the start of the record";
        if (entry.id !== expected) {
          const gap = entry.id - expected === 1 ? "an entry between was removed" : "entries between were removed";
          return broken(entry.id, `it does not follow ${before} (${gap})`);
        }
        if (entry.prev_hash !== (last?.hash ?? GENESIS_HASH)) {
          return broken(entry.id, `it does not follow ${before} (entries were reordered, or one was replaced)`);
        }
        if (entryHash(entry) !== entry.hash) {
          return broken(entry.id, "its content does not match its hash (changed after it was written)");
        }
        last = entry;
      }
      if (page.length < VERIFY_PAGE) break;
    }
    const entries = last?.id ?? 0;
    if (!head) return broken(entries + 1, "the record's head row is missing (it was deleted)");
    if (head.entries > entries) {
      const removed = head.entries - entries === 1 ? "the newest entry was removed" : "the newest entries were removed";
      return broken(entries + 1, `it is missing: the record held ${head.entries} entries (${removed})`);
    }
    if (head.entries < entries || head.hash !== (last?.hash ?? GENESIS_HASH)) {
      return broken(
        entries,
        "it is not the newest entry the record's head names (it was added or replaced behind the log)",
      );
    }
    return { ok: true, entries, head: last?.hash ?? null, broken_at: null, problem: null, checked_at };
  }

  return {
    append: async (entry: NewLogEntry): Promise<LogEntry> => (await appendMany([entry]))[0]!,
    appendMany,

    /**
     * The checks `email` was shown since `sinceIso`, newest first, each with its `shownKey`: seeing the same again
     * adds no entry. One query for a whole list: a Verify list of 10,000 rows asked one at a time took 5 s.
     */
    async recentChecks(email: string, sinceIso: string): Promise<{ id: number; shown: string }[]> {
      const entries = await db
        .selectFrom("log_entries")
        .select(["id", "state", "license", "verdict", "reason", "record_sha256", "given_json"])
        .where("user_email", "=", email)
        .where("at", ">=", sinceIso)
        .where("action", "in", CHECK_ACTIONS)
        .orderBy("id", "desc")
        .execute();
      return entries.map((entry) => ({ id: entry.id, shown: shownKey(entry) }));
    },

    /** Newest first, a page at a time. */
    async list(filter: LogFilter = {}): Promise<LogPage> {
      const limit = filter.limit ?? CHECKS_PAGE_SIZE;
      const { total } = await filtered(filter).select(db.fn.countAll<number>().as("total")).executeTakeFirstOrThrow();
      let page = filtered(filter).selectAll();
      if (filter.before !== undefined) page = page.where("id", "<", filter.before);
      // The CSV asks for every entry (MAX_SAFE_INTEGER): one more would not be a whole number PostgreSQL is sent exactly.
      const entries = await page
        .orderBy("id", "desc")
        .limit(Math.min(limit + 1, 2 ** 53 - 1))
        .execute();
      const more = entries.length > limit;
      if (more) entries.pop();
      return { entries, next_before: more ? entries.at(-1)!.id : null, total };
    },

    get: async (id: number): Promise<LogEntry | null> =>
      (await db.selectFrom("log_entries").selectAll().where("id", "=", id).executeTakeFirst()) ?? null,

    /** How many entries the log holds and the newest's hash, as its head row says. */
    async head(): Promise<{ entries: number; hash: string }> {
      const head = await readHead(db);
      if (!head) throw new Error("the record of checks has no head row (it was deleted): run npm run checks -- verify");
      remember(head);
      return head;
    },
    /** The newest head this process wrote or read (head() primes it); null before either. */
    lastSeenHead: () => seen,

    /** Walks the whole chain in id order and names the first entry that breaks it, and how. */
    verify: (): Promise<ChainState> =>
      // One snapshot: REPEATABLE READ on PostgreSQL; on SQLite a transaction's reads all see one state.
      db
        .transaction()
        .setIsolationLevel("repeatable read")
        .execute((trx) => walk(trx)),
  };
}
