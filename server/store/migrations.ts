import type Database from "better-sqlite3";
import { buildVocabulary, buildWordIndex, createHistoryTable, datasetTables, KEY_FIELDS } from "./dataset-tables.ts";
import type { KeyField } from "./search-terms.ts";

/**
 * The version of the store this code reads and writes, kept in the file as SQLite's user_version.
 * It covers the tables and the license JSON stored as it is served (the contract's shape): bump
 * it, with a migration below, whenever either changes. store-version.test.ts fails when the
 * contract's license object changes and this does not.
 */
export const STORE_VERSION = 9;

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
  {
    to: 2,
    what: "where each record comes from: the sources (files) of each state, what each said of each license, and each live record's source and as-of date",
    run(db) {
      db.exec(`
        CREATE TABLE sources (
          id          INTEGER PRIMARY KEY,
          state       TEXT NOT NULL,
          adapter     TEXT NOT NULL,  -- the --source name (ny-sla), or demo
          family      TEXT NOT NULL,  -- one series over time: a newer roster of a family replaces an older one
          kind        TEXT NOT NULL CHECK (kind IN ('roster', 'changes')),
          agency      TEXT NOT NULL,
          title       TEXT NOT NULL,
          coverage    TEXT NOT NULL,
          file        TEXT,           -- the file's name as given, null for generated data
          sha256      TEXT,
          bytes       INTEGER,
          as_of       TEXT,           -- when the source says its data was current, null when unknown
          as_of_from  TEXT NOT NULL,  -- how that date is known
          loaded_at   TEXT NOT NULL,
          status      TEXT NOT NULL CHECK (status IN ('loading', 'loaded'))
        );
        -- A file is one loaded source of its state; with --replace it loads again beside itself until the flip.
        CREATE UNIQUE INDEX sources_one_file_per_state ON sources (state, sha256) WHERE sha256 IS NOT NULL AND status = 'loaded';
        -- Each source's word on each license, with the date it was true on, in file order.
        CREATE TABLE observations (
          id          INTEGER PRIMARY KEY,
          source_id   INTEGER NOT NULL,
          license     TEXT NOT NULL,
          as_of       TEXT,
          facts       TEXT NOT NULL,     -- JSON, in the adapter's own shape
          line        INTEGER NOT NULL   -- where in the file (or in the archive member)
        );
        CREATE INDEX observations_by_source ON observations (source_id);
        CREATE INDEX observations_by_license ON observations (license);
      `);
      // The data sets a version-1 store holds keep their records; what it knew of their source
      // (the adapter's name and one date per state) becomes a source of each.
      const sets = db.prepare(`SELECT id, state, source, as_of, created_at FROM datasets`).all() as {
        id: number;
        state: string;
        source: string;
        as_of: string | null;
        created_at: string;
      }[];
      const addSource = db.prepare(
        `INSERT INTO sources (state, adapter, family, kind, agency, title, coverage, as_of, as_of_from, loaded_at, status)
         VALUES (?, ?, ?, 'roster', ?, ?, ?, ?, 'recorded before sources were kept', ?, 'loaded')`,
      );
      for (const set of sets) {
        const { lastInsertRowid } = addSource.run(
          set.state,
          set.source,
          set.source,
          set.source === "demo" ? "License Lookup demo data" : set.source,
          "loaded before sources were kept: import again to record the files",
          "not recorded",
          set.as_of,
          set.created_at,
        );
        const rows = `licenses_${Number(set.id)}`;
        db.exec(`ALTER TABLE ${rows} ADD COLUMN source_id INTEGER; ALTER TABLE ${rows} ADD COLUMN as_of TEXT;`);
        db.prepare(`UPDATE ${rows} SET source_id = ?, as_of = ?`).run(lastInsertRowid, set.as_of);
      }
    },
  },
  {
    to: 3,
    what: "each license's history beside each data set's records (empty for data imported before: import again to see it)",
    run(db) {
      const sets = db.prepare(`SELECT id FROM datasets`).pluck().all() as number[];
      for (const id of sets) createHistoryTable(db, id);
    },
  },
  {
    to: 4,
    what: "each data set's vocabulary of words, for search that forgives typos",
    run: (db) => forEachSearchedField(db, (id, field) => buildVocabulary(db, id, field)),
  },
  {
    to: 5,
    what: "each data set's index of whole words, and every word in its vocabulary, for searches whose words no record holds together",
    run: (db) =>
      forEachSearchedField(db, (id, field) => {
        // Adds the words version 4 left out (with digits, under three letters) to those it listed.
        buildVocabulary(db, id, field);
        buildWordIndex(db, id, field);
      }),
  },
  {
    to: 6,
    what: "sources marked partial: a list cut from a fuller one, whose silence on a license says nothing of it",
    run: (db) => db.exec(`ALTER TABLE sources ADD COLUMN partial INTEGER NOT NULL DEFAULT 0 CHECK (partial IN (0, 1))`),
  },
  {
    to: 7,
    what: "refused imports: each file an import would not load (a list that shrank too far, no usable row), and why",
    run: (db) =>
      db.exec(`
        CREATE TABLE refusals (
          id          INTEGER PRIMARY KEY,
          state       TEXT NOT NULL,
          adapter     TEXT NOT NULL,
          file        TEXT NOT NULL,  -- the file's name as given
          sha256      TEXT NOT NULL,  -- names its copy in the archive, where one was kept
          refused_at  TEXT NOT NULL,
          reason      TEXT NOT NULL   -- the sentence the import said
        );
        CREATE INDEX refusals_by_state ON refusals (state, refused_at);
      `),
  },
  {
    to: 8,
    what: "feed checks: per agency feed a sync asks, when it last asked, what it found, when it last brought new data",
    run: (db) =>
      db.exec(`
        CREATE TABLE feed_checks (
          feed        TEXT PRIMARY KEY,  -- the fetch definition asked: "ny-sla/retail-licenses"
          state       TEXT NOT NULL,
          adapter     TEXT NOT NULL,
          url         TEXT NOT NULL,     -- as the agency publishes it, before any --origin
          checked_at  TEXT NOT NULL,     -- the last time a sync asked
          outcome     TEXT NOT NULL CHECK (outcome IN ('unchanged', 'changed', 'refused', 'failed')),
          detail      TEXT NOT NULL,     -- what that check found, in a sentence
          changed_at  TEXT,              -- the last check that brought new data in
          validators  TEXT               -- JSON: what the next check compares (ETag, Last-Modified, rowsUpdatedAt, SHA-256)
        );
        CREATE INDEX feed_checks_by_state ON feed_checks (state);
      `),
  },
  {
    to: 9,
    what: "where each field of a record comes from, when an older list gives it (empty for data imported before: import again to see it)",
    run(db) {
      const sets = db.prepare(`SELECT id FROM datasets`).pluck().all() as number[];
      const exists = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).pluck();
      for (const id of sets) {
        const rows = datasetTables(id).rows;
        if (exists.get(rows)) db.exec(`ALTER TABLE ${rows} ADD COLUMN fields TEXT`);
      }
    },
  },
];

/** Each searched field of each data set: one whose search tables were never built (a load cut short) has none. */
function forEachSearchedField(db: Database.Database, run: (datasetId: number, field: KeyField) => void): void {
  const sets = db.prepare(`SELECT id FROM datasets`).pluck().all() as number[];
  const exists = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).pluck();
  for (const id of sets) for (const field of KEY_FIELDS) if (exists.get(datasetTables(id).ranks(field))) run(id, field);
}

export function storeVersion(db: Database.Database): number {
  return db.pragma("user_version", { simple: true }) as number;
}

/** Brings the store up to STORE_VERSION (tests: to `target`); returns what each step did. */
export function migrate(db: Database.Database, target = STORE_VERSION): string[] {
  const done: string[] = [];
  for (const step of MIGRATIONS.filter((m) => m.to <= target)) {
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
