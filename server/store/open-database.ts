import Database from "better-sqlite3";
import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { SCHEMA } from "./schema.ts";

export type Db = Database.Database;

export interface OpenOptions {
  /** Create the file when it does not exist (the CLI's writers); the API refuses a missing file. */
  create?: boolean;
}

export class DatabaseFileError extends Error {}

export function openDatabase(file: string, options: OpenOptions = {}): Db {
  if (file !== ":memory:" && !options.create && !existsSync(file)) {
    throw new DatabaseFileError(
      `database file ${file} does not exist: create it with \`npm run demo -- --db ${file}\` or \`npm run import -- --db ${file} ...\``,
    );
  }
  if (file !== ":memory:" && options.create) mkdirSync(dirname(file), { recursive: true });
  let db: Db;
  try {
    db = new Database(file);
    // WAL: readers keep their snapshot while an import writes, and never block it.
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("busy_timeout = 5000");
    db.exec(SCHEMA);
  } catch (error) {
    throw new DatabaseFileError(
      `cannot open ${file} as a License Lookup database (${(error as Error).message}): ` +
        `restore it from a backup, or move it aside and recreate it with \`npm run demo\` or \`npm run import\``,
    );
  }
  return db;
}
