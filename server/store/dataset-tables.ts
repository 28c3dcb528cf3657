import type { Db } from "./open-database.ts";
import type { KeyField } from "./search-terms.ts";

export const KEY_FIELDS: readonly KeyField[] = ["business", "owner", "address"];

export interface DatasetTables {
  rows: string;
  /** Each license's history, those no longer listed included: license -> JSON. */
  history: string;
  /** rank (the field's order within a tier) -> row and key. */
  ranks(field: KeyField): string;
  /** Trigram index of the field's word-marked key; its rowid is the rank. */
  words(field: KeyField): string;
  /** The field's distinct words: which hold a query word (word-lists.ts), which a typo may stand for (near-words.ts). */
  vocabulary(field: KeyField): string;
  /** Index of the field's key by whole words, without positions; its rowid is the rank. */
  wordIndex(field: KeyField): string;
}

// Every request names these tables: made once per data set rather than per call.
const named = new Map<number, DatasetTables>();

/** Names of the tables that hold one data set: its rows, and per searched field a rank table and an index. */
export function datasetTables(datasetId: number): DatasetTables {
  let tables = named.get(datasetId);
  if (tables) return tables;
  if (!Number.isSafeInteger(datasetId) || datasetId <= 0) throw new Error(`bad data set id ${datasetId}`);
  const ranks = Object.fromEntries(KEY_FIELDS.map((f) => [f, `rank_${f}_${datasetId}`])) as Record<KeyField, string>;
  const words = Object.fromEntries(KEY_FIELDS.map((f) => [f, `words_${f}_${datasetId}`])) as Record<KeyField, string>;
  const vocabulary = Object.fromEntries(KEY_FIELDS.map((f) => [f, `vocab_${f}_${datasetId}`])) as Record<
    KeyField,
    string
  >;
  const wordIndex = Object.fromEntries(KEY_FIELDS.map((f) => [f, `wholes_${f}_${datasetId}`])) as Record<
    KeyField,
    string
  >;
  tables = {
    rows: `licenses_${datasetId}`,
    history: `history_${datasetId}`,
    ranks: (field) => ranks[field],
    words: (field) => words[field],
    vocabulary: (field) => vocabulary[field],
    wordIndex: (field) => wordIndex[field],
  };
  named.set(datasetId, tables);
  return tables;
}

export function createDatasetTables(db: Db, datasetId: number): void {
  const t = datasetTables(datasetId);
  createHistoryTable(db, datasetId);
  db.exec(`
    CREATE TABLE ${t.rows} (
      id           INTEGER PRIMARY KEY,
      license      TEXT NOT NULL,  -- unique: indexed once all rows are in (see indexLicenseNumbers)
      doc          TEXT NOT NULL,  -- the license object as served, validated on the way in
      active       INTEGER NOT NULL,
      business_key TEXT NOT NULL,
      owner_key    TEXT NOT NULL,
      address_key  TEXT NOT NULL,
      source_id    INTEGER,        -- the source whose word this record is (sources.id)
      as_of        TEXT,           -- the date that source says it was true on
      fields       TEXT            -- JSON: each field an older source gives (StoredFieldSource[]); null: none
    );
  `);
}

/** The data set's histories: one row per license a source ever named, its history as served (StoredHistory). */
export function createHistoryTable(db: Db, datasetId: number): void {
  db.exec(
    `CREATE TABLE IF NOT EXISTS ${datasetTables(datasetId).history} (license TEXT PRIMARY KEY, doc TEXT NOT NULL) WITHOUT ROWID`,
  );
}

/** `dead rabbit` -> `^^dead ^^rabbit`: a word start becomes a trigram of its own, even for one letter. */
export function markWordStarts(key: string): string {
  return key === "" ? "" : `^^${key.replaceAll(" ", " ^^")}`;
}

/**
 * markWordStarts of the `key` column, in SQL: a call into JS for every row cost 2 s a million rows.
 * The ranked-search tests fail when the two differ (queries are marked by markWordStarts).
 */
const MARKED_KEY = `iif(key = '', '', '^^' || replace(key, ' ', ' ^^'))`;

/**
 * Once every row is in: the license-number index (building it once is faster than keeping it up
 * row by row). Returns a license number that occurs twice, or null when all are unique.
 */
export function indexLicenseNumbers(db: Db, datasetId: number): string | null {
  const t = datasetTables(datasetId);
  try {
    db.exec(`CREATE UNIQUE INDEX ${t.rows}_license ON ${t.rows} (license)`);
    return null;
  } catch (error) {
    if ((error as { code?: string }).code !== "SQLITE_CONSTRAINT_UNIQUE") throw error;
    return db
      .prepare(`SELECT license FROM ${t.rows} GROUP BY license HAVING count(*) > 1 LIMIT 1`)
      .pluck()
      .get() as string;
  }
}

/**
 * Once every row is in: number each field's rows in within-tier order (active first, shorter field,
 * license number) and index them, so that search reads matches already in that order.
 */
export function buildSearchIndexes(db: Db, datasetId: number): void {
  const t = datasetTables(datasetId);
  for (const field of KEY_FIELDS) {
    const ranks = t.ranks(field);
    const index = t.words(field);
    db.exec(`
      CREATE TABLE ${ranks} (rank INTEGER PRIMARY KEY, row_id INTEGER NOT NULL, key TEXT NOT NULL);
      INSERT INTO ${ranks} (rank, row_id, key)
        SELECT row_number() OVER (ORDER BY active DESC, length(${field}_key), license), id, ${field}_key FROM ${t.rows};
      CREATE INDEX ${ranks}_key ON ${ranks} (key);
      -- contentless, and no per-row column sizes: search matches and orders by rowid, never by bm25.
      CREATE VIRTUAL TABLE ${index} USING fts5(words, content = '', columnsize = 0, tokenize = 'trigram');
      INSERT INTO ${index} (${index}, rank) VALUES ('automerge', 0), ('crisismerge', ${BULK_CRISISMERGE});
      -- In rank order, not the key index's (which covers rank and key, so the planner likes it):
      -- FTS5 writes out its pending terms whenever a rowid goes back, which made each build 3x slower.
      INSERT INTO ${index} (rowid, words) SELECT rank, ${MARKED_KEY} FROM ${ranks} ORDER BY rank;
      INSERT INTO ${index} (${index}) VALUES ('optimize');
      INSERT INTO ${index} (${index}, rank) VALUES ('automerge', ${FTS5_DEFAULT_AUTOMERGE}), ('crisismerge', ${FTS5_DEFAULT_CRISISMERGE});
    `);
    buildVocabulary(db, datasetId, field);
    buildWordIndex(db, datasetId, field);
  }
}

/**
 * Whole words, where the trigram index holds pieces: two common long words that no row holds together
 * cost FTS5 milliseconds to intersect as trigrams, microseconds as words. No positions: search asks
 * which rows hold a word, never where. The `ascii` tokenizer splits only at spaces here (keys hold
 * letters, digits and spaces), so its words are the key's words.
 */
export function buildWordIndex(db: Db, datasetId: number, field: KeyField): void {
  const t = datasetTables(datasetId);
  const index = t.wordIndex(field);
  db.exec(`
    CREATE VIRTUAL TABLE ${index} USING fts5(words, content = '', columnsize = 0, detail = none, tokenize = 'ascii');
    INSERT INTO ${index} (${index}, rank) VALUES ('automerge', 0), ('crisismerge', ${BULK_CRISISMERGE});
    INSERT INTO ${index} (rowid, words) SELECT rank, key FROM ${t.ranks(field)} ORDER BY rank;
    INSERT INTO ${index} (${index}) VALUES ('optimize');
    INSERT INTO ${index} (${index}, rank) VALUES ('automerge', ${FTS5_DEFAULT_AUTOMERGE}), ('crisismerge', ${FTS5_DEFAULT_CRISISMERGE});
  `);
}

/**
 * The distinct words of a field's keys, read whole into memory by search the first time it needs
 * them: which words hold a query word (word-lists.ts), which a typo may stand for (near-words.ts).
 */
export function buildVocabulary(db: Db, datasetId: number, field: KeyField): void {
  const t = datasetTables(datasetId);
  const distinct = new Set<string>();
  for (const key of db
    .prepare(`SELECT key FROM ${t.ranks(field)}`)
    .pluck()
    .iterate() as Iterable<string>) {
    for (const word of key.split(" ")) if (word) distinct.add(word);
  }
  db.exec(`CREATE TABLE IF NOT EXISTS ${t.vocabulary(field)} (word TEXT PRIMARY KEY) WITHOUT ROWID`);
  const insert = db.prepare(`INSERT OR IGNORE INTO ${t.vocabulary(field)} (word) VALUES (?)`);
  for (const word of [...distinct].sort()) insert.run(word);
}

/**
 * While an index is bulk-loaded, FTS5 merges its b-trees as they pile up (automerge, and crisismerge
 * at 16 on a level) only for 'optimize' to merge everything once more: the load turns automerge off,
 * raises crisismerge to the most FTS5 allows (its bound on b-trees), then restores the defaults.
 */
const BULK_CRISISMERGE = 1999;
const FTS5_DEFAULT_AUTOMERGE = 4;
const FTS5_DEFAULT_CRISISMERGE = 16;

export function dropDatasetTables(db: Db, datasetId: number): void {
  const t = datasetTables(datasetId);
  const tables = [
    t.rows,
    t.history,
    ...KEY_FIELDS.flatMap((f) => [t.ranks(f), t.words(f), t.vocabulary(f), t.wordIndex(f)]),
  ];
  db.exec(tables.map((name) => `DROP TABLE IF EXISTS ${name};`).join("\n"));
}
