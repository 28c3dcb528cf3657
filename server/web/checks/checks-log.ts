import { createHash } from "node:crypto";
import type Database from "better-sqlite3";
import {
  CHECK_ACTIONS,
  CHECKS_PAGE_SIZE,
  type ChainState,
  type LogAction,
  type LogEntry,
} from "../../../src/contract/checks.ts";
import type { Provenance } from "../../../src/contract/envelopes.ts";

/**
 * The record of checks: one table of entries chained by SHA-256, and a head row naming the newest, so that
 * altering, removing or reordering an entry (the newest too) shows when the chain is walked.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS log_entries (
  id INTEGER PRIMARY KEY,
  at TEXT NOT NULL,
  zone TEXT,
  action TEXT NOT NULL,
  user_email TEXT,
  user_name TEXT,
  user_role TEXT,
  state TEXT,
  license TEXT,
  verdict TEXT,
  reason TEXT,
  record_json TEXT,
  record_sha256 TEXT,
  provenance_json TEXT,
  source_sha256 TEXT,
  as_of TEXT,
  detail TEXT,
  app_version TEXT NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS log_by_user ON log_entries (user_email, id);
CREATE INDEX IF NOT EXISTS log_by_license ON log_entries (state, license, id);
CREATE INDEX IF NOT EXISTS log_by_at ON log_entries (at);
CREATE TABLE IF NOT EXISTS log_head (
  one INTEGER PRIMARY KEY CHECK (one = 1),
  entries INTEGER NOT NULL,
  hash TEXT NOT NULL
);
INSERT OR IGNORE INTO log_head (one, entries, hash) VALUES (1, 0, '${"0".repeat(64)}');
`;

export const GENESIS_HASH = "0".repeat(64);

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

/** An entry's hash: the hash before it, then its fields as a JSON array in HASHED_FIELDS order. */
export function entryHash(entry: Omit<LogEntry, "hash">): string {
  return sha256(`${entry.prev_hash}\n${JSON.stringify(HASHED_FIELDS.map((field) => entry[field]))}`);
}

/** Where the record came from, as the log keeps it: the source file's SHA-256 and the date it was true on. */
function sourceOf(provenanceJson: string | null): { source_sha256: string | null; as_of: string | null } {
  if (provenanceJson === null) return { source_sha256: null, as_of: null };
  const provenance = JSON.parse(provenanceJson) as Provenance;
  return { source_sha256: provenance.source.sha256, as_of: provenance.as_of ?? provenance.source.as_of };
}

const newestOf = ({ entries, hash }: { entries: number; hash: string | null }) => ({ entries, head: hash });

export type ChecksLog = ReturnType<typeof createChecksLog>;

/** The record of checks on the app's database (`db`), its tables created when absent. */
export function createChecksLog(
  db: Database.Database,
  { appVersion, now = () => new Date() }: { appVersion: string; now?: () => Date },
) {
  db.exec(SCHEMA);
  const statements = {
    head: db.prepare<[], { entries: number; hash: string }>("SELECT entries, hash FROM log_head WHERE one = 1"),
    setHead: db.prepare<[number, string]>("UPDATE log_head SET entries = ?, hash = ? WHERE one = 1"),
    insert: db.prepare(
      `INSERT INTO log_entries (${[...HASHED_FIELDS, "prev_hash", "hash"].join(", ")})
       VALUES (${[...HASHED_FIELDS, "prev_hash", "hash"].map((f) => `@${f}`).join(", ")})`,
    ),
    get: db.prepare<[number], LogEntry>("SELECT * FROM log_entries WHERE id = ?"),
    inOrder: db.prepare<[], LogEntry>("SELECT * FROM log_entries ORDER BY id"),
    newest: db.prepare<[], { entries: number; hash: string | null }>(
      "SELECT count(*) AS entries, (SELECT hash FROM log_entries ORDER BY id DESC LIMIT 1) AS hash FROM log_entries",
    ),
    recent: db.prepare<[string, string, string, string, string], LogEntry>(
      `SELECT * FROM log_entries
       WHERE state = ? AND license = ? AND user_email = ? AND coalesce(record_sha256, verdict) = ? AND at >= ?
         AND action IN (${CHECK_ACTIONS.map((a) => `'${a}'`).join(", ")})
       ORDER BY id DESC LIMIT 1`,
    ),
  };

  function write(entries: readonly NewLogEntry[]): LogEntry[] {
    const head = statements.head.get()!;
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
        app_version: appVersion,
        prev_hash: prev,
      };
      const entry: LogEntry = { ...unhashed, hash: entryHash(unhashed) };
      statements.insert.run(entry);
      prev = entry.hash;
      return entry;
    });
    statements.setHead.run(id, prev);
    return written;
  }
  // IMMEDIATE: the write lock is taken before the head is read, so another process appending cannot fork the chain.
  const writeAll = db.transaction(write);
  const appendMany = (entries: readonly NewLogEntry[]): LogEntry[] =>
    entries.length === 0 ? [] : writeAll.immediate(entries);

  function where(filter: LogFilter) {
    const clauses: string[] = [];
    const params: (string | number)[] = [];
    const add = (clause: string, value: string | number | undefined) => {
      if (value === undefined || value === "") return;
      clauses.push(clause);
      params.push(value);
    };
    add("user_email = ?", filter.user);
    add("state = ?", filter.state);
    add("license = ?", filter.license);
    add("verdict = ?", filter.verdict);
    add("action = ?", filter.action);
    add("at >= ?", filter.from);
    add("at < ?", filter.to);
    return { sql: clauses.length ? `WHERE ${clauses.join(" AND ")}` : "", params };
  }

  return {
    append: (entry: NewLogEntry): LogEntry => appendMany([entry])[0]!,
    appendMany,

    /**
     * The check that already holds what `email` was shown of this license since `sinceIso`: the same record
     * (its SHA-256) or, where there was none, the same verdict. Seeing it again adds no entry.
     */
    recentCheck(email: string, state: string, license: string, recordSha256OrVerdict: string, sinceIso: string) {
      return statements.recent.get(state, license, email, recordSha256OrVerdict, sinceIso) ?? null;
    },

    /** Newest first, a page at a time. */
    list(filter: LogFilter = {}): LogPage {
      const limit = filter.limit ?? CHECKS_PAGE_SIZE;
      const { sql, params } = where(filter);
      const total = db
        .prepare<unknown[], number>(`SELECT count(*) FROM log_entries ${sql}`)
        .pluck()
        .get(...params)!;
      const page = filter.before === undefined ? "" : `${sql ? "AND" : "WHERE"} id < ?`;
      const pageParams = filter.before === undefined ? params : [...params, filter.before];
      const entries = db
        .prepare<unknown[], LogEntry>(`SELECT * FROM log_entries ${sql} ${page} ORDER BY id DESC LIMIT ?`)
        .all(...pageParams, limit + 1);
      const more = entries.length > limit;
      if (more) entries.pop();
      return { entries, next_before: more ? entries.at(-1)!.id : null, total };
    },

    get: (id: number): LogEntry | null => statements.get.get(id) ?? null,

    /** How many entries the log holds and the newest's hash, as its head row says. */
    head: (): { entries: number; hash: string } => statements.head.get()!,

    /** Walks the whole chain in id order and names the first entry that breaks it, and how. */
    verify(): ChainState {
      const checked_at = now().toISOString();
      const head = statements.head.get();
      let last: LogEntry | null = null;
      const broken = (at: number, problem: string): ChainState => ({
        ok: false,
        ...newestOf(statements.newest.get()!),
        broken_at: at,
        problem: `entry ${at}: ${problem}`,
        checked_at,
      });
      for (const entry of statements.inOrder.iterate()) {
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
      const entries = last?.id ?? 0;
      if (!head) return broken(entries + 1, "the record's head row is missing (it was deleted)");
      if (head.entries > entries) {
        const removed =
          head.entries - entries === 1 ? "the newest entry was removed" : "the newest entries were removed";
        return broken(entries + 1, `it is missing: the record held ${head.entries} entries (${removed})`);
      }
      if (head.entries < entries || head.hash !== (last?.hash ?? GENESIS_HASH)) {
        return broken(
          entries,
          "it is not the newest entry the record's head names (it was added or replaced behind the log)",
        );
      }
      return { ok: true, entries, head: last?.hash ?? null, broken_at: null, problem: null, checked_at };
    },
  };
}
