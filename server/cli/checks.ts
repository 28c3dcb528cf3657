import Database from "better-sqlite3";
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { databaseUrlFromEnv, openStateDb, type StateDb } from "../db/state-db.ts";
import { DEFAULT_APP_DB } from "../web/app-db.ts";
import { APP_VERSION } from "../web/app-version.ts";
import { createChecksLog } from "../web/checks/checks-log.ts";
import { fail } from "./fail.ts";

const USAGE = `Checks the record of checks kept in the app's database.

usage: npm run checks -- verify [--db FILE]

  verify     walks the whole chain: every entry in order, each linked to the one before by its SHA-256,
             each hash recomputed from the entry's content. Exits 0 when it holds, 1 naming the first
             entry that breaks it (altered, removed or reordered after it was written).
  --db FILE  the app's SQLite file (default: DATABASE_URL's PostgreSQL when set, else APP_DB, else ${DEFAULT_APP_DB})

Compare the newest hash it prints with the one in the latest daily digest email: a record rewritten
whole holds as a chain, but no longer ends in the hash the mailbox has.`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    db: { type: "string" },
    help: { type: "boolean", default: false },
  },
});
const [command] = positionals;
if (values.help || !command) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 1);
}
if (command !== "verify") fail(`unknown command ${command}: use verify (see --help)`);

// An explicit --db names a file; else DATABASE_URL, as the app reads it; else APP_DB.
let url: string | null = null;
try {
  url = values.db ? null : databaseUrlFromEnv(process.env);
} catch (error) {
  fail((error as Error).message);
}
let state: StateDb;
let sqlite: Database.Database | null = null;
if (url) {
  state = openStateDb({ url, poolSize: 1 });
} else {
  const file = values.db ?? (process.env.APP_DB || DEFAULT_APP_DB);
  // Opening a missing file would create an empty database that "holds": say so instead.
  if (!existsSync(file)) fail(`no database at ${file}: name the app's database with --db FILE, APP_DB or DATABASE_URL`);
  sqlite = new Database(file, { fileMustExist: true });
  state = openStateDb({ sqlite });
}

try {
  // Verifying never creates the record: a database without one is the wrong database.
  const tables = await state.db.introspection.getTables();
  if (!tables.some((table) => table.name === "log_entries")) {
    fail(`${state.label} holds no record of checks: is it the app's database (APP_DB or DATABASE_URL)?`);
  }
  const chain = await createChecksLog(state, { appVersion: APP_VERSION }).verify();
  if (!chain.ok) {
    console.error(`The record of checks is broken at ${chain.problem}.`);
    console.error(`It holds ${chain.entries} entries; newest hash ${chain.head ?? "(none)"}.`);
    process.exitCode = 1;
  } else {
    console.log(
      `The record of checks holds: ${chain.entries} entries; newest hash ${chain.head ?? "(none: it is empty)"}`,
    );
  }
} catch (error) {
  fail(`cannot read the record of checks in ${state.label}: ${(error as Error).message}`);
} finally {
  await state.close();
  sqlite?.close();
}
