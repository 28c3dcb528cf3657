import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { sql, type Kysely } from "kysely";
import {
  CHECK_ACTIONS,
  CHECKS_PAGE_SIZE,
  type ChainState,
  type LogAction,
  type LogEntry,
} from "../../../src/contract/checks.ts";
import type { Provenance } from "../../../src/contract/envelopes.ts";
import { recordAsOf } from "../../../src/contract/record-source.ts";
import type { MigrationSet, StateDb } from "../../db/state-db.ts";

export const GENESIS_HASH = "0".repeat(64);

interface ChecksTables {
  log_entries: LogEntry;
  log_head: { one: number; entries: number; hash: string; signature: string | null };
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
  // The head's HMAC under CHECKS_KEY, kept outside the database: null until a key signs it (an append, or
  // `npm run checks -- sign`).
  "2026-11-28-checks-head-signature": () => ({
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("log_head").addColumn("signature", "text").execute();
    },
  }),
};

/** CHECKS_KEY, the key that signs the record's head; null when unset. */
export function checksKeyFromEnv(env: NodeJS.ProcessEnv): string | null {
  return env.CHECKS_KEY?.trim() || null;
}

/** The head's signature: HMAC-SHA256 under the key of its count and newest hash. */
export function headSignature(key: string, head: { entries: number; hash: string }): string {
  return createHmac("sha256", key).update(`${head.entries}\n${head.hash}`, "utf8").digest("hex");
}

function signedBy(key: string, head: { entries: number; hash: string; signature: string | null }): boolean {
  if (head.signature === null || !/^[0-9a-f]{64}$/.test(head.signature)) return false;
  return timingSafeEqual(Buffer.from(headSignature(key, head), "hex"), Buffer.from(head.signature, "hex"));
}

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
  return { source_sha256: provenance.source.sha256, as_of: recordAsOf(provenance) };
}

/** An entry the chain is known to hold up to: its id and hash. */
interface Checkpoint {
  id: number;
  hash: string;
}

export type ChecksLog = ReturnType<typeof createChecksLog>;

// Many rows per INSERT, few enough for SQLite's limit of bound values.
const INSERT_ROWS = 500;
// verify() walks the chain this many entries at a time: a long record is never held in memory whole.
const VERIFY_PAGE = 1000;
// The Checks page's chain state walks the whole record no more often than this.
const WHOLE_WALK_MS = 24 * 60 * 60 * 1000;
const ENTRY_COLUMNS = [...HASHED_FIELDS, "given_json", "prev_hash", "hash"] as const;

/** The record of checks in the app's database (`state`), migrated with CHECKS_MIGRATIONS. */
export function createChecksLog(
  state: StateDb,
  {
    appVersion,
    now = () => new Date(),
    key = checksKeyFromEnv(process.env),
  }: {
    appVersion: string;
    now?: () => Date;
    /** The key that signs the head: CHECKS_KEY unless given; null, none. */
    key?: string | null;
  },
) {
  const db = state.db as Kysely<ChecksTables>;
  // The newest head this process wrote or read: for a reader that cannot wait (the watchlist's digest).
  let seen: { entries: number; hash: string } | null = null;
  // Appends finish in any order: the newest is the one with the most entries.
  const remember = (head: { entries: number; hash: string }) => {
    if (!seen || head.entries >= seen.entries) seen = head;
  };

  const readHead = (q: Kysely<ChecksTables>) =>
    q.selectFrom("log_head").select(["entries", "hash", "signature"]).where("one", "=", 1).executeTakeFirst();
  // The head's lock before reading it (a row lock on PostgreSQL, the write lock on SQLite): two nodes
  // appending at once take turns, so the chain never forks.
  const lockHead = (trx: Kysely<ChecksTables>) =>
    trx
      .updateTable("log_head")
      .set((eb) => ({ entries: eb.ref("entries") }))
      .where("one", "=", 1)
      .execute();

  async function write(trx: Kysely<ChecksTables>, entries: readonly NewLogEntry[]): Promise<LogEntry[]> {
    await lockHead(trx);
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
    // A head that does not carry the key's signature stays unsigned: signing on top would bless a rewrite.
    const sign = key !== null && (head.entries === 0 || signedBy(key, head));
    await trx
      .updateTable("log_head")
      .set({ entries: id, hash: prev, ...(sign ? { signature: headSignature(key, { entries: id, hash: prev }) } : {}) })
      .where("one", "=", 1)
      .execute();
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

  /**
   * The chain walked in id order inside one snapshot (`q`), so that appends meanwhile are not mistaken for tampering;
   * from `from` (an entry already verified, which must still be there with its hash) or from the start.
   */
  async function walk(q: Kysely<ChecksTables>, from: Checkpoint | null, signed = true): Promise<ChainState> {
    const checked_at = now().toISOString();
    const head = await readHead(q);
    let last: Checkpoint | null = from && from.id > 0 ? from : null;
    const broken = async (at: number, problem: string): Promise<ChainState> => {
      const { n } = await q.selectFrom("log_entries").select(q.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      const newest = await q.selectFrom("log_entries").select("hash").orderBy("id", "desc").limit(1).executeTakeFirst();
      return {
        ok: false,
        entries: Number(n),
        head: newest?.hash ?? null,
        broken_at: at,
        problem: `entry ${at}: ${problem}`,
        checked_at,
      };
    };
    if (last) {
      const kept = await q.selectFrom("log_entries").select("hash").where("id", "=", last.id).executeTakeFirst();
      if (kept?.hash !== last.hash) {
        return broken(last.id, `it is not the entry verified before (${kept ? "it was replaced" : "it was removed"})`);
      }
    }
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
        last = { id: entry.id, hash: entry.hash };
      }
      if (page.length < VERIFY_PAGE) break;
    }
    const entries = last?.id ?? 0;
    const newest = last?.hash ?? GENESIS_HASH;
    if (!head) return broken(entries + 1, "the record's head row is missing (it was deleted)");
    if (head.entries > entries) {
      const removed = head.entries - entries === 1 ? "the newest entry was removed" : "the newest entries were removed";
      return broken(entries + 1, `it is missing: the record held ${head.entries} entries (${removed})`);
    }
    if (head.entries < entries || head.hash !== newest) {
      return broken(
        entries,
        "it is not the newest entry the record's head names (it was added or replaced behind the log)",
      );
    }
    if (signed && key && entries > 0 && !signedBy(key, head)) {
      return broken(
        entries,
        head.signature === null
          ? "the record's head is not signed with CHECKS_KEY (written before the key was set, or its signature was removed): compare it with the latest digest (verify --expect), then run npm run checks -- sign"
          : "the record's head does not carry CHECKS_KEY's signature (the record was rewritten without the key, or the key is not the one that signed it)",
      );
    }
    return { ok: true, entries, head: last?.hash ?? null, broken_at: null, problem: null, checked_at };
  }

  // The newest entry this process has verified the chain up to, and when the chain was last walked whole.
  let checkpoint: (Checkpoint & { whole_at: number }) | null = null;
  let viewing: Promise<ChainState> | null = null;
  const snapshot = <T>(run: (trx: Kysely<ChecksTables>) => Promise<T>) =>
    // One snapshot: REPEATABLE READ on PostgreSQL; on SQLite a transaction's reads all see one state.
    db.transaction().setIsolationLevel("repeatable read").execute(run);
  const verifyFrom = async (from: Checkpoint | null): Promise<ChainState> => {
    const chain = await snapshot((trx) => walk(trx, from));
    if (chain.ok) {
      const whole_at = from && checkpoint ? checkpoint.whole_at : now().getTime();
      checkpoint = { id: chain.entries, hash: chain.head ?? GENESIS_HASH, whole_at };
    }
    return chain;
  };

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

    /** Every entry the filter matches, newest first, `size` at a time: an export never holds the log whole. */
    async *pages(filter: LogFilter, size = VERIFY_PAGE): AsyncGenerator<LogEntry[]> {
      let before = filter.before;
      for (;;) {
        let query = filtered(filter).selectAll();
        if (before !== undefined) query = query.where("id", "<", before);
        const page = await query.orderBy("id", "desc").limit(size).execute();
        if (page.length > 0) yield page;
        if (page.length < size) return;
        before = page.at(-1)!.id;
      }
    },

    get: async (id: number): Promise<LogEntry | null> =>
      (await db.selectFrom("log_entries").selectAll().where("id", "=", id).executeTakeFirst()) ?? null,

    /** How many entries the log holds and the newest's hash, as its head row says. */
    async head(): Promise<{ entries: number; hash: string }> {
      const row = await readHead(db);
      if (!row) throw new Error("the record of checks has no head row (it was deleted): run npm run checks -- verify");
      const head = { entries: row.entries, hash: row.hash };
      remember(head);
      return head;
    },
    /** The newest head this process wrote or read (head() primes it); null before either. */
    lastSeenHead: () => seen,

    /** Walks the whole chain in id order and names the first entry that breaks it, and how. */
    verify: (): Promise<ChainState> => verifyFrom(null),

    /**
     * The chain's state for a page view: walked whole at the first view and once a day after, else only the entries
     * newer than the last verified one (which must still be there with its hash), the head and its signature.
     */
    state(): Promise<ChainState> {
      // Views at once share one walk: a node's first views after it starts do not each walk the whole record.
      viewing ??= verifyFrom(
        checkpoint && now().getTime() - checkpoint.whole_at < WHOLE_WALK_MS ? checkpoint : null,
      ).finally(() => (viewing = null));
      return viewing;
    },

    /**
     * Walks the whole chain and, when it holds, signs its head with CHECKS_KEY: how a record kept before the key was
     * set starts being signed. Null without a key.
     */
    async sign(): Promise<ChainState | null> {
      if (!key) return null;
      return db.transaction().execute(async (trx) => {
        await lockHead(trx);
        const chain = await walk(trx, null, false);
        if (!chain.ok) return chain;
        const head = { entries: chain.entries, hash: chain.head ?? GENESIS_HASH };
        await trx
          .updateTable("log_head")
          .set({ signature: headSignature(key, head) })
          .where("one", "=", 1)
          .execute();
        return chain;
      });
    },
  };
}
