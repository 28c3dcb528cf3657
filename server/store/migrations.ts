import type Database from "better-sqlite3";

/**
 * The version of the store this code reads and writes, kept in the file as SQLite's user_version.
 * It covers the tables and the license JSON stored as it is served (the contract's shape): bump
 * it, with a migration below, whenever either changes. store-version.test.ts fails when the
 * contract's license object changes and this does not.
 */
export const STORE_VERSION = 1;

interface Migration {
  /** The version the store is at once this step has run. */
  to: number;
  /** What the step changes, for `npm run migrate`'s output. */
  what: string;
  run(db: Database.Database): void;
}

/** Every step from an empty file (version 0) to STORE_VERSION, in order; each runs in one transaction. */
const MIGRATIONS: readonly Migration[] = [
  {
    to: 1,
    what: "tables for data sets and API keys (a file from before versions were recorded keeps its data)",
    run: (db) =>
      // Each data set's own rows live in per-data-set tables (dataset-tables.ts), so replacing a
      // state is "load new tables, flip `live`, drop old ones". IF NOT EXISTS: files written before
      // versions were recorded already hold these tables, with their data.
      db.exec(`
        CREATE TABLE IF NOT EXISTS datasets (
          id          INTEGER PRIMARY KEY,
          state       TEXT NOT NULL,
          source      TEXT NOT NULL,
          as_of       TEXT,
          records     INTEGER NOT NULL DEFAULT 0,
          created_at  TEXT NOT NULL,
          status      TEXT NOT NULL CHECK (status IN ('loading', 'live', 'retired'))
        );
        CREATE UNIQUE INDEX IF NOT EXISTS datasets_one_live_per_state ON datasets (state) WHERE status = 'live';

        CREATE TABLE IF NOT EXISTS api_keys (
          id          INTEGER PRIMARY KEY,
          hash        TEXT NOT NULL UNIQUE,
          states      TEXT NOT NULL,
          label       TEXT,
          created_at  TEXT NOT NULL,
          revoked_at  TEXT
        );
      `),
  },
];

export function storeVersion(db: Database.Database): number {
  return db.pragma("user_version", { simple: true }) as number;
}

/** Brings the store up to STORE_VERSION; returns what each step did (nothing when it was current). */
export function migrate(db: Database.Database): string[] {
  const done: string[] = [];
  for (const step of MIGRATIONS) {
    // IMMEDIATE takes the write lock before reading the version: two writers starting at once
    // cannot both run a step.
    const ran = db
      .transaction(() => {
        if (storeVersion(db) >= step.to) return false;
        step.run(db);
        db.pragma(`user_version = ${step.to}`);
        return true;
      })
      .immediate();
    if (ran) done.push(`store version ${step.to}: ${step.what}`);
  }
  return done;
}
