import Database from "better-sqlite3";
import { existsSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { migrateStateDb, type StateDb } from "../db/state-db.ts";
import { WATCH_MIGRATIONS } from "./watchlist/watch-store.ts";

/** The app's own database: users, sessions, the record of checks and the watchlist. */
export const DEFAULT_APP_DB = "data/app.sqlite";
/** Where the watchlist lived before it moved into the app's database. */
export const LEGACY_WATCH_DB = "data/watchlist.sqlite";

// The watchlist's tables, in the order their references need.
const WATCH_TABLES = ["watched", "checks", "changes", "deliveries", "meta"] as const;

/** Opens (creating when absent) the app's database. */
export function openAppDatabase(file: string): Database.Database {
  if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("busy_timeout = 5000");
  db.exec("CREATE TABLE IF NOT EXISTS app_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID");
  return db;
}

/**
 * Brings the watchlist's tables up to date in the app's state database. On SQLite, a watchlist file of its own
 * from before (`watchDb`) is then taken over once: every row copied in one transaction, the old file left as it
 * was and no longer read.
 */
export async function migrateAppWatchlist(
  state: StateDb,
  { watchDb = null, log = () => {} }: { watchDb?: string | null; log?: (line: string) => void } = {},
) {
  await migrateStateDb(state, "app", WATCH_MIGRATIONS);
  const db = state.sqlite;
  if (db && watchDb && existsSync(watchDb) && resolve(watchDb) !== resolve(db.name)) {
    db.exec("CREATE TABLE IF NOT EXISTS app_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID");
    takeOverWatchlist(db, watchDb, log);
  }
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
