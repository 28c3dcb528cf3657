import Database from "better-sqlite3";
import type { RawRow } from "./table.ts";

// A table of a SQLite database file, read as a sheet is: its column names, then its rows.

function openReadOnly(path: string): Database.Database {
  return new Database(path, { readonly: true, fileMustExist: true });
}

/** The names of the tables in a SQLite database file. */
export function sqliteTables(path: string): string[] {
  const db = openReadOnly(path);
  try {
    return db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];
  } finally {
    db.close();
  }
}

/**
 * A table's column names (as the header, line 0), then each row's cells in rowid order, its line
 * its rowid: `SELECT * FROM table WHERE rowid = line` finds a row a message names. A table
 * without rowids is read in its own order, each row's line its place from 1.
 */
// better-sqlite3 reads synchronously; the rows are async only to be read as every reader's are.
// eslint-disable-next-line @typescript-eslint/require-await
export async function* sqliteRows(path: string, table: string): AsyncGenerator<RawRow> {
  const db = openReadOnly(path);
  try {
    const quoted = `"${table.replaceAll('"', '""')}"`;
    const columns = db.pragma(`table_info(${quoted})`) as { name: string }[];
    yield { line: 0, cells: columns.map((c) => c.name) };
    let byRowid = true;
    let select: Database.Statement;
    try {
      select = db.prepare(`SELECT rowid, * FROM ${quoted} ORDER BY rowid`).raw();
    } catch {
      byRowid = false;
      select = db.prepare(`SELECT * FROM ${quoted}`).raw();
    }
    let place = 0;
    for (const row of select.iterate() as Iterable<unknown[]>) {
      place++;
      yield byRowid ? { line: Number(row[0]), cells: row.slice(1) } : { line: place, cells: row };
    }
  } finally {
    db.close();
  }
}
