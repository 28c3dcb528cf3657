import Database from "better-sqlite3";
import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { migrate, STORE_VERSION, storeVersion } from "./migrations.ts";

export type Db = Database.Database;

export interface OpenOptions {
  /** Create the file when it does not exist (the CLI's writers); the API refuses a missing file. */
  create?: boolean;
  /**
   * Bring an older store up to this code's version (default). The API opens with false: it serves
   * only a store at exactly its version, and says how to migrate one that is older.
   */
  migrate?: boolean;
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
  let version: number;
  try {
    db = new Database(file);
    // WAL: readers keep their snapshot while an import writes, and never block it.
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("busy_timeout = 5000");
    version = storeVersion(db);
  } catch (error) {
    throw new DatabaseFileError(
      `cannot open ${file} as a License Lookup database (${(error as Error).message}): ` +
        `restore it from a backup, or move it aside and recreate it with \`npm run demo\` or \`npm run import\``,
    );
  }
  if (version > STORE_VERSION) {
    db.close();
    throw new DatabaseFileError(
      `${file} was written by a newer License Lookup (store version ${version}; this one knows up to ${STORE_VERSION}): ` +
        `run the newer version, or use a database this version wrote`,
    );
  }
  if (version < STORE_VERSION) {
    if (options.migrate === false) {
      db.close();
      throw new DatabaseFileError(
        `${file} is at store version ${version}, older than this License Lookup's ${STORE_VERSION}: ` +
          `run \`npm run migrate -- --db ${file}\` (or any import into it), then start again`,
      );
    }
    const holdsData = version > 0 || db.prepare("SELECT count(*) FROM sqlite_master").pluck().get() !== 0;
    const steps = migrate(db);
    // A new file is simply created; a store that held data is changed, and that is worth a line.
    if (holdsData) for (const step of steps) console.error(`${file}: migrated to ${step}`);
  }
  return db;
}
