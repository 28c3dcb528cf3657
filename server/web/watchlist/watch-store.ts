import Database from "better-sqlite3";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
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

/**
 * The team's watchlist in a SQLite file of its own, beside the app's configuration: what is
 * watched and what was last seen of it, every change a check found, the checks, and the alerts
 * still to deliver (an outbox, so a restart loses none).
 */
export const WATCH_SCHEMA = `
CREATE TABLE IF NOT EXISTS watched (
  state TEXT NOT NULL,
  license TEXT NOT NULL,
  added_at TEXT NOT NULL,
  checked_at TEXT,
  outcome TEXT NOT NULL,
  record TEXT,
  provenance TEXT,
  -- The check that last answered for it: a check resumed after a restart skips what it already did.
  check_id INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (state, license)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS changes (
  id INTEGER PRIMARY KEY,
  check_id INTEGER NOT NULL,
  state TEXT NOT NULL,
  license TEXT NOT NULL,
  field TEXT NOT NULL,
  from_value TEXT,
  to_value TEXT,
  detected_at TEXT NOT NULL,
  seen INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS changes_unseen ON changes (seen, id);
CREATE INDEX IF NOT EXISTS changes_of_check ON changes (check_id);
CREATE INDEX IF NOT EXISTS changes_of_license ON changes (state, license, seen);
CREATE TABLE IF NOT EXISTS checks (
  id INTEGER PRIMARY KEY,
  trigger TEXT NOT NULL,
  started_at TEXT NOT NULL,
  finished_at TEXT,
  checked INTEGER NOT NULL DEFAULT 0,
  total INTEGER NOT NULL,
  changes INTEGER NOT NULL DEFAULT 0,
  error TEXT
);
CREATE TABLE IF NOT EXISTS deliveries (
  id INTEGER PRIMARY KEY,
  -- One per check and kind, one expiring digest per day: made twice, it is still sent once.
  key TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,
  subject TEXT NOT NULL,
  payload TEXT NOT NULL,
  created_at TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  next_attempt_at TEXT,
  delivered_at TEXT
);
CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries (delivered_at, next_attempt_at);
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
`;

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

interface WatchedRow {
  state: string;
  license: string;
  added_at: string;
  checked_at: string | null;
  outcome: WatchEntry["outcome"];
  record: string | null;
  provenance: string | null;
  unseen?: number;
}

interface ChangeRow {
  id: number;
  state: string;
  license: string;
  field: WatchField;
  from_value: string | null;
  to_value: string | null;
  detected_at: string;
  seen: number;
}

export type WatchStore = ReturnType<typeof openWatchStore>;

export function openWatchStore(file: string) {
  if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("busy_timeout = 5000");
  db.exec(WATCH_SCHEMA);

  // A watched license with the count of its changes not yet seen.
  const withUnseen = `SELECT w.*, (SELECT count(*) FROM changes c WHERE c.state = w.state AND c.license = w.license AND c.seen = 0) AS unseen
    FROM watched w`;
  const statements = {
    entries: db.prepare<[], WatchedRow>(`${withUnseen} ORDER BY w.state, w.license`),
    entry: db.prepare<[string, string], WatchedRow>(`${withUnseen} WHERE w.state = ? AND w.license = ?`),
    count: db.prepare<[], number>("SELECT count(*) FROM watched").pluck(),
    has: db.prepare<[string, string], number>("SELECT 1 FROM watched WHERE state = ? AND license = ?").pluck(),
    insert: db.prepare(
      `INSERT OR IGNORE INTO watched (state, license, added_at, checked_at, outcome, record, provenance)
       VALUES (@state, @license, @at, @at, @outcome, @record, @provenance)`,
    ),
    remove: db.prepare<[string, string]>("DELETE FROM watched WHERE state = ? AND license = ?"),
    toCheck: db.prepare<
      [number],
      { state: string; license: string; record: string | null; provenance: string | null; outcome: string }
    >("SELECT state, license, record, provenance, outcome FROM watched WHERE check_id <> ? ORDER BY state, license"),
    answer: db.prepare(
      `UPDATE watched SET checked_at = @at, outcome = @outcome, record = @record, provenance = @provenance, check_id = @check
       WHERE state = @state AND license = @license`,
    ),
    skip: db.prepare("UPDATE watched SET check_id = @check WHERE state = @state AND license = @license"),
    change: db.prepare(
      `INSERT INTO changes (check_id, state, license, field, from_value, to_value, detected_at)
       VALUES (@check, @state, @license, @field, @from, @to, @at)`,
    ),
    unseen: db.prepare<[], ChangeRow>("SELECT * FROM changes WHERE seen = 0 ORDER BY id DESC"),
    changesOf: db.prepare<[number], ChangeRow>("SELECT * FROM changes WHERE check_id = ? ORDER BY id"),
    markSeen: db.prepare<[number]>("UPDATE changes SET seen = 1 WHERE seen = 0 AND id <= ?"),
    startCheck: db.prepare<[string, string, number]>(
      "INSERT INTO checks (trigger, started_at, total) VALUES (?, ?, ?)",
    ),
    unfinished: db.prepare<[], WatchCheck>("SELECT * FROM checks WHERE finished_at IS NULL ORDER BY id DESC LIMIT 1"),
    lastCheck: db.prepare<[], WatchCheck>("SELECT * FROM checks ORDER BY id DESC LIMIT 1"),
    progress: db.prepare<[number, string | null, number]>(
      "UPDATE checks SET checked = checked + ?, error = coalesce(error, ?) WHERE id = ?",
    ),
    finish: db.prepare<[string, number, number]>(
      "UPDATE checks SET finished_at = ?, changes = (SELECT count(*) FROM changes WHERE check_id = ?) WHERE id = ?",
    ),
    enqueue: db.prepare(
      `INSERT OR IGNORE INTO deliveries (key, kind, subject, payload, created_at, next_attempt_at)
       VALUES (@key, @kind, @subject, @payload, @at, @at)`,
    ),
    due: db.prepare<[string], StoredDelivery>(
      `SELECT id, key, kind, subject, payload, created_at, attempts FROM deliveries
       WHERE delivered_at IS NULL AND next_attempt_at IS NOT NULL AND next_attempt_at <= ? ORDER BY id`,
    ),
    nextDue: db
      .prepare<[], string | null>(
        "SELECT min(next_attempt_at) FROM deliveries WHERE delivered_at IS NULL AND next_attempt_at IS NOT NULL",
      )
      .pluck(),
    delivered: db.prepare<[string, number]>(
      "UPDATE deliveries SET delivered_at = ?, attempts = attempts + 1 WHERE id = ?",
    ),
    failed: db.prepare<[string, string | null, number]>(
      "UPDATE deliveries SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE id = ?",
    ),
    hasDelivery: db.prepare<[string], number>("SELECT 1 FROM deliveries WHERE key = ?").pluck(),
    retryPending: db.prepare<[string]>(
      "UPDATE deliveries SET next_attempt_at = ? WHERE delivered_at IS NULL AND next_attempt_at IS NOT NULL",
    ),
    undelivered: db.prepare<[], WatchDelivery>(
      `SELECT kind, subject, created_at, attempts, last_error, next_attempt_at FROM deliveries
       WHERE delivered_at IS NULL ORDER BY id`,
    ),
    getMeta: db.prepare<[string], string>("SELECT value FROM meta WHERE name = ?").pluck(),
    setMeta: db.prepare<[string, string]>("INSERT OR REPLACE INTO meta (name, value) VALUES (?, ?)"),
  };

  const entryOf = (row: WatchedRow): WatchEntry => ({
    state: row.state,
    license: row.license,
    added_at: row.added_at,
    checked_at: row.checked_at,
    outcome: row.outcome,
    record: row.record === null ? null : (JSON.parse(row.record) as License),
    provenance: row.provenance === null ? null : (JSON.parse(row.provenance) as Provenance),
    unseen: row.unseen ?? 0,
  });

  return {
    db,
    close: () => db.close(),
    count: () => statements.count.get() ?? 0,
    has: (state: string, license: string) => statements.has.get(state, license) === 1,
    entries: (): WatchEntry[] => statements.entries.all().map(entryOf),
    entry: (state: string, license: string): WatchEntry | null => {
      const row = statements.entry.get(state, license);
      return row ? entryOf(row) : null;
    },

    /** Adds the answers not yet watched, within `max`; each answer's outcome says which were added. */
    add: db.transaction((answers: readonly Answer[], at: string): Map<string, WatchAddResult["outcome"]> => {
      const outcomes = new Map<string, WatchAddResult["outcome"]>();
      for (const a of answers) {
        const result = statements.insert.run({
          state: a.state,
          license: a.license,
          at,
          outcome: a.outcome,
          record: a.record && JSON.stringify(a.record),
          provenance: a.provenance && JSON.stringify(a.provenance),
        });
        outcomes.set(`${a.state}/${a.license}`, result.changes === 1 ? "added" : "already watched");
      }
      return outcomes;
    }),
    remove: (state: string, license: string) => statements.remove.run(state, license).changes === 1,

    unseenChanges: () => statements.unseen.all().map(changeOf),
    changesOf: (checkId: number) => statements.changesOf.all(checkId).map(changeOf),
    /** Marks seen the changes up to `upTo`: one a check found after the clerk's page was drawn stays unseen. */
    markSeen: db.transaction((upTo: number, at: string) => {
      statements.markSeen.run(upTo);
      statements.setMeta.run("looked_at", at);
    }),
    lookedAt: () => statements.getMeta.get("looked_at") ?? null,

    /** The check a restart interrupted, to finish first; else a new one over every watched license. */
    beginCheck(trigger: WatchCheck["trigger"], at: string): WatchCheck {
      const open = statements.unfinished.get();
      if (open) return open;
      statements.startCheck.run(trigger, at, statements.count.get() ?? 0);
      return statements.lastCheck.get()!;
    },
    // The checks table's columns are the contract's check, name for name.
    unfinishedCheck: (): WatchCheck | null => statements.unfinished.get() ?? null,
    lastCheck: (): WatchCheck | null => statements.lastCheck.get() ?? null,
    /** The watched licenses this check has not answered for yet, with what was last seen of each. */
    toCheck: (checkId: number) =>
      statements.toCheck.all(checkId).map((row) => ({
        state: row.state,
        license: row.license,
        outcome: row.outcome as WatchEntry["outcome"],
        record: row.record === null ? null : (JSON.parse(row.record) as License),
        provenance: row.provenance === null ? null : (JSON.parse(row.provenance) as Provenance),
      })),

    /** One batch of a check, in one transaction: what was seen now and the changes from before, or neither. */
    recordAnswers: db.transaction(
      (
        checkId: number,
        at: string,
        answers: readonly Answer[],
        changes: readonly NewChange[],
        error: string | null,
      ) => {
        for (const a of answers) {
          statements.answer.run({
            check: checkId,
            at,
            state: a.state,
            license: a.license,
            outcome: a.outcome,
            record: a.record && JSON.stringify(a.record),
            provenance: a.provenance && JSON.stringify(a.provenance),
          });
        }
        for (const c of changes) statements.change.run({ check: checkId, at, ...c });
        statements.progress.run(answers.length, error, checkId);
      },
    ),
    /** Licenses a check could not ask about (the service failed): passed over, their last answer kept. */
    passOver: db.transaction((checkId: number, keys: readonly { state: string; license: string }[], error: string) => {
      for (const k of keys) statements.skip.run({ check: checkId, ...k });
      statements.progress.run(keys.length, error, checkId);
    }),

    /** Ends a check and queues its alerts in the same transaction: a check is finished with its alerts or not at all. */
    finishCheck: db.transaction(
      (
        checkId: number,
        at: string,
        alerts: readonly { key: string; kind: DeliveryKind; subject: string; payload: string }[],
      ) => {
        statements.finish.run(at, checkId, checkId);
        for (const alert of alerts) statements.enqueue.run({ ...alert, at });
      },
    ),
    /** Queues one alert unless one with its key was queued before. */
    enqueue: (alert: { key: string; kind: DeliveryKind; subject: string; payload: string }, at: string) =>
      statements.enqueue.run({ ...alert, at }).changes === 1,
    hasDelivery: (key: string) => statements.hasDelivery.get(key) === 1,
    due: (now: string) => statements.due.all(now),
    nextDue: () => statements.nextDue.get() ?? null,
    delivered: (id: number, at: string) => statements.delivered.run(at, id),
    failed: (id: number, error: string, retryAt: string | null) => statements.failed.run(error, retryAt, id),
    /** A restart may be the fix (a corrected URL, a mail server back): what waits for a retry is due at once. */
    retryPending: (at: string) => statements.retryPending.run(at),
    undelivered: () => statements.undelivered.all(),
    meta: (name: string) => statements.getMeta.get(name) ?? null,
    setMeta: (name: string, value: string) => statements.setMeta.run(name, value),
  };
}

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
