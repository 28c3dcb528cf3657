import type { Db } from "./open-database.ts";

/** Names of the tables that hold one data set's rows and its search index. */
export function datasetTables(datasetId: number) {
  if (!Number.isSafeInteger(datasetId) || datasetId <= 0) throw new Error(`bad data set id ${datasetId}`);
  return { rows: `licenses_${datasetId}`, index: `license_search_${datasetId}` };
}

export function createDatasetTables(db: Db, datasetId: number): void {
  const t = datasetTables(datasetId);
  db.exec(`
    CREATE TABLE ${t.rows} (
      id           INTEGER PRIMARY KEY,
      license      TEXT NOT NULL UNIQUE,
      doc          TEXT NOT NULL,  -- the license object as served, validated on the way in
      status       TEXT NOT NULL,
      business_key TEXT NOT NULL,
      owner_key    TEXT NOT NULL,
      address_key  TEXT NOT NULL
    );
    -- Trigram index over the normalized fields: substring search in any position.
    CREATE VIRTUAL TABLE ${t.index} USING fts5(
      business_key, owner_key, address_key,
      content = '', contentless_delete = 1, tokenize = 'trigram'
    );
  `);
}

export function dropDatasetTables(db: Db, datasetId: number): void {
  const t = datasetTables(datasetId);
  db.exec(`DROP TABLE IF EXISTS ${t.index}; DROP TABLE IF EXISTS ${t.rows};`);
}
