import { LicenseSchema, type License } from "../../src/contract/license.ts";
import {
  buildSearchIndexes,
  createDatasetTables,
  datasetTables,
  dropDatasetTables,
  indexLicenseNumbers,
} from "./dataset-tables.ts";
import { batchInsert } from "./batch-insert.ts";
import { noteOwnWrite } from "./change-watch.ts";
import type { DatasetMeta, LicenseRecord, SourcedRecord, StoredFieldSource, StoredHistory } from "./license-record.ts";
import type { Db } from "./open-database.ts";
import { fieldKey } from "./search-terms.ts";
import { formatTimestamp } from "./timestamp.ts";

export interface ReplaceOptions {
  onProgress?: (written: number) => void;
  /** Every row is written; the search index is being built (a step per data set, not per row). */
  onIndexing?: () => void;
  /**
   * Check each record against the contract (default). A caller that has checked every record at
   * its own edge, as the importer's contract gate does, may skip the second check.
   */
  validate?: boolean;
  /** Rows per write transaction; bigger is faster, smaller keeps each commit short. */
  batchSize?: number;
  /**
   * Each license's history (those no longer listed included), kept beside the records and live
   * with them. A license without one was listed once, by its record's source (see listedOnce).
   */
  histories?: Iterable<readonly [license: string, history: StoredHistory]>;
  /** Runs inside the transaction that makes the new set live: writes that must land with it, or not at all. */
  withFlip?: () => void;
}

export class RecordRejectedError extends Error {}

interface Stored {
  license: License;
  sourceId: number | null;
  asOf: string | null;
  fields: StoredFieldSource[] | undefined;
}

/**
 * Atomically replaces one state's data. The new set is written into tables of its own while the
 * old set stays live; one transaction then flips `live`; the old tables are dropped afterwards.
 * A crash at any point leaves the old set live (left-over `loading` sets are dropped next time).
 */
export async function replaceState(
  db: Db,
  meta: DatasetMeta,
  records: Iterable<LicenseRecord | SourcedRecord> | AsyncIterable<LicenseRecord | SourcedRecord>,
  options: ReplaceOptions = {},
): Promise<{ datasetId: number; records: number }> {
  const batchSize = options.batchSize ?? 5000;
  dropAbandoned(db, meta.state);

  const datasetId = db.transaction(() => {
    const { lastInsertRowid } = db
      .prepare(`INSERT INTO datasets (state, source, as_of, created_at, status) VALUES (?, ?, ?, ?, 'loading')`)
      .run(meta.state, meta.source, meta.asOf, formatTimestamp(new Date()));
    const id = Number(lastInsertRowid);
    createDatasetTables(db, id);
    return id;
  })();

  const t = datasetTables(datasetId);
  const insertRows = batchInsert(
    db,
    `INSERT INTO ${t.rows} (license, doc, active, business_key, owner_key, address_key, source_id, as_of, fields) VALUES`,
    9,
  );
  const insertHistories = batchInsert(db, `INSERT INTO ${t.history} (license, doc) VALUES`, 2);
  const updatedAt = formatTimestamp(new Date());
  const writeBatch = db.transaction((batch: Stored[]) => {
    const rows = insertRows();
    for (const { license, sourceId, asOf, fields } of batch) {
      rows.add(
        license.license,
        JSON.stringify(license),
        license.status === "active" ? 1 : 0,
        fieldKey("business", license.business),
        fieldKey("owner", license.owner),
        fieldKey("address", license.address.line_1),
        sourceId,
        asOf,
        fields?.length ? JSON.stringify(fields) : null,
      );
    }
    rows.end();
  });

  let written = 0;
  let batch: Stored[] = [];
  // A checkpoint every few MB (SQLite's default) costs a sync each time: a load writes hundreds
  // of MB, so it checkpoints once, at the end. Readers meanwhile read the old set as before.
  const autocheckpoint = db.pragma("wal_autocheckpoint", { simple: true }) as number;
  db.pragma("wal_autocheckpoint = 0");
  try {
    for await (const item of records) {
      const sourced: SourcedRecord =
        "record" in item ? item : { record: item, sourceId: meta.sourceId ?? null, asOf: meta.asOf };
      const license = toLicense(sourced.record, meta.state, updatedAt, options.validate ?? true);
      batch.push({ license, sourceId: sourced.sourceId, asOf: sourced.asOf, fields: sourced.fields });
      if (batch.length >= batchSize) {
        writeBatch(batch);
        written += batch.length;
        batch = [];
        options.onProgress?.(written);
      }
    }
    writeBatch(batch);
    written += batch.length;
    options.onProgress?.(written);
    const { histories } = options;
    if (histories) db.transaction(() => writeHistories(insertHistories, histories))();
    options.onIndexing?.();
    db.transaction(() => {
      const repeated = indexLicenseNumbers(db, datasetId);
      if (repeated !== null)
        throw new RecordRejectedError(`license ${repeated} appears twice in the ${meta.state} data`);
      buildSearchIndexes(db, datasetId);
    })();
  } catch (error) {
    dropAbandoned(db, meta.state);
    throw error;
  } finally {
    db.pragma(`wal_autocheckpoint = ${autocheckpoint}`);
  }

  const retired = db.transaction(() => {
    const old = db.prepare(`SELECT id FROM datasets WHERE state = ? AND status = 'live'`).all(meta.state) as {
      id: number;
    }[];
    db.prepare(`UPDATE datasets SET status = 'retired' WHERE state = ? AND status = 'live'`).run(meta.state);
    db.prepare(`UPDATE datasets SET status = 'live', records = ? WHERE id = ?`).run(written, datasetId);
    options.withFlip?.();
    return old.map((r) => r.id);
  })();
  // This connection's caches (the live data set of each state) must not outlive the flip.
  noteOwnWrite(db);
  for (const id of retired) dropDataset(db, id);
  db.pragma("wal_checkpoint(PASSIVE)");
  return { datasetId, records: written };
}

function writeHistories(insert: ReturnType<typeof batchInsert>, histories: Iterable<readonly [string, StoredHistory]>) {
  const rows = insert();
  for (const [license, history] of histories) rows.add(license, JSON.stringify(history));
  rows.end();
}

function toLicense(record: LicenseRecord, state: string, updatedAt: string, validate: boolean): License {
  if (record.state !== state) {
    throw new RecordRejectedError(`license ${record.license} is for state ${record.state}, not ${state}`);
  }
  if (!validate) return { object: "license", ...record, updated_at: updatedAt };
  const parsed = LicenseSchema.safeParse({ object: "license", ...record, updated_at: updatedAt });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new RecordRejectedError(
      `license ${record.license} does not fit the contract: ${issue?.path.join(".")} ${issue?.message}`,
    );
  }
  return parsed.data;
}

/** Drops data sets a crashed or failed load left behind, and retired sets not yet dropped. */
function dropAbandoned(db: Db, state: string): void {
  const rows = db
    .prepare(`SELECT id FROM datasets WHERE state = ? AND status IN ('loading', 'retired')`)
    .all(state) as { id: number }[];
  for (const { id } of rows) dropDataset(db, id);
}

function dropDataset(db: Db, id: number): void {
  db.transaction(() => {
    dropDatasetTables(db, id);
    db.prepare(`DELETE FROM datasets WHERE id = ?`).run(id);
  })();
}
