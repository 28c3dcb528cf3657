import type Database from "better-sqlite3";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { TableCopy } from "../db/copy-tables.ts";
import { migrateStateDb, openStateDb, type StateDb } from "../db/state-db.ts";
import { ACCOUNTS_MIGRATIONS } from "./accounts/users-store.ts";
import { CHECKS_MIGRATIONS } from "./checks/checks-log.ts";
import { WATCH_MIGRATIONS } from "./watchlist/watch-store.ts";

/** The app's own database: users, sessions, the record of checks and the watchlist. */
export const DEFAULT_APP_DB = "data/app.sqlite";
/** Where the watchlist lived before it moved into the app's database. */
export const LEGACY_WATCH_DB = "data/watchlist.sqlite";

// The watchlist's tables, in the order their references need.
const WATCH_TABLES = ["watched", "checks", "changes", "deliveries", "meta"] as const;

/**
 * Every table of the app's state, references first, as `npm run migrate -- --take-over` copies a SQLite file's
 * into PostgreSQL: users and their links and sessions, the record of checks, the watchlist.
 */
export const APP_TABLES: readonly TableCopy[] = [
  { name: "app_meta", replace: true },
  { name: "users", serialId: true },
  { name: "password_links" },
  { name: "sessions" },
  { name: "log_entries" },
  { name: "log_head", replace: true },
  // Numbered by the database, but for the two keyed by name (a license, a setting).
  ...WATCH_TABLES.map((name) => ({ name, serialId: name !== "watched" && name !== "meta" })),
];

export interface AppStateOptions {
  /** DATABASE_URL: the app's state on PostgreSQL, shared by every app node; null or absent: the SQLite `file`. */
  url?: string | null;
  /** The SQLite file (created when absent) when there is no `url`. */
  file: string;
  /** A watchlist file of its own from before, taken over into the SQLite file (never into PostgreSQL). */
  watchDb?: string | null;
  log?: (line: string) => void;
}

/**
 * Opens the app's database, brought up to date (its migrations run under a lock: two nodes starting at once take
 * turns). On SQLite, a watchlist file of its own from before (`watchDb`) is taken over once: every row copied in
 * one transaction, the old file left as it was and no longer read.
 */
export async function openAppState({
  url = null,
  file,
  watchDb = null,
  log = () => {},
}: AppStateOptions): Promise<StateDb> {
  const state = url ? openStateDb({ url }) : openStateDb({ file });
  try {
    await migrateStateDb(state, "app", ACCOUNTS_MIGRATIONS, CHECKS_MIGRATIONS, WATCH_MIGRATIONS);
    if (state.sqlite && watchDb && existsSync(watchDb) && resolve(watchDb) !== resolve(file)) {
      takeOverWatchlist(state.sqlite, watchDb, log);
    }
  } catch (error) {
    await state.close();
    throw error;
  }
  return state;
}

function takeOverWatchlist(db: Database.Database, watchDb: string, log: (line: string) => void) {
  const done = db.prepare<[], string>("SELECT value FROM app_meta WHERE name = 'watchlist_taken_over'").pluck().get();
  if (done) return;
  db.prepare("ATTACH DATABASE ? AS old").run(watchDb);
  try {
    const copied = db.transaction(() => {
      const have = new Set(
        db.prepare<[], string>("SELECT name FROM old.sqlite_master WHERE type = 'table'").pluck().all(),
      );
      for (const table of WATCH_TABLES) {
        if (!have.has(table)) continue;
        const columns = db.prepare<[], string>(`SELECT name FROM pragma_table_info('${table}', 'old')`).pluck().all();
        const list = columns.map((c) => `"${c}"`).join(", ");
        db.exec(`INSERT OR IGNORE INTO main.${table} (${list}) SELECT ${list} FROM old.${table}`);
      }
      db.prepare("INSERT INTO app_meta (name, value) VALUES ('watchlist_taken_over', ?)").run(
        `${resolve(watchDb)} at ${new Date().toISOString()}`,
      );
      return db.prepare<[], number>("SELECT count(*) FROM main.watched").pluck().get() ?? 0;
    })();
    log(`Took over the watchlist of ${watchDb} (${copied} licenses); that file is no longer read.`);
  } finally {
    db.exec("DETACH DATABASE old");
  }
}
