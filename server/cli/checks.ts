import Database from "better-sqlite3";
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { APP_VERSION } from "../web/app-version.ts";
import { createChecksLog } from "../web/checks/checks-log.ts";
import { fail } from "./fail.ts";

const DEFAULT_DB = "data/app.sqlite";

const USAGE = `Checks the record of checks kept in the app's database.

usage: npm run checks -- verify [--db FILE]

  verify     walks the whole chain: every entry in order, each linked to the one before by its SHA-256,
             each hash recomputed from the entry's content. Exits 0 when it holds, 1 naming the first
             entry that breaks it (altered, removed or reordered after it was written).
  --db FILE  the app's database (default: APP_DB, else ${DEFAULT_DB})

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

const file = values.db ?? (process.env.APP_DB || DEFAULT_DB);
// Opening a missing file would create an empty database that "holds": say so instead.
if (!existsSync(file)) fail(`no database at ${file}: name the app's database with --db FILE or APP_DB`);
const db = new Database(file, { fileMustExist: true });
const hasLog = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'log_entries'").pluck().get();
if (!hasLog) fail(`${file} holds no record of checks: is it the app's database (APP_DB)?`);

const state = createChecksLog(db, { appVersion: APP_VERSION }).verify();
db.close();
if (!state.ok) {
  console.error(`The record of checks is broken at ${state.problem}.`);
  console.error(`It holds ${state.entries} entries; newest hash ${state.head ?? "(none)"}.`);
  process.exit(1);
}
console.log(`The record of checks holds: ${state.entries} entries; newest hash ${state.head ?? "(none: it is empty)"}`);
