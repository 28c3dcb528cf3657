import Database from "better-sqlite3";
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { databaseUrlFromEnv, openStateDb, type StateDb } from "../db/state-db.ts";
import { DEFAULT_APP_DB } from "../web/app-db.ts";
import { APP_VERSION } from "../web/app-version.ts";
import { checksKeyFromEnv, createChecksLog, type ChecksLog } from "../web/checks/checks-log.ts";
import { fail } from "./fail.ts";

const USAGE = `Checks the record of checks kept in the app's database.

usage: npm run checks -- verify [--expect COUNT:HASH] [--db FILE]
       npm run checks -- sign [--expect COUNT:HASH] [--db FILE]

  verify     walks the whole chain: every entry in order, each linked to the one before by its SHA-256,
             each hash recomputed from the entry's content, and, when CHECKS_KEY is set, the head's
             signature. Exits 0 when it holds, 1 naming the first entry that breaks it (altered, removed
             or reordered after it was written, or a head rewritten without the key).
  sign       verifies the chain, then signs its head with CHECKS_KEY: how a record kept before the key
             was set starts being signed (appends sign it from then on).
  --expect COUNT:HASH
             the entry count and newest hash a daily digest email carried: exits 1 unless the record
             still holds that entry with that hash (the newest entries removed, or the record rewritten).
  --db FILE  the app's SQLite file (default: DATABASE_URL's PostgreSQL when set, else APP_DB, else ${DEFAULT_APP_DB})

Without CHECKS_KEY, a record rewritten whole, or cut short with its head row rewritten, holds as a
chain: only --expect, with a digest kept outside the server, tells.`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    db: { type: "string" },
    expect: { type: "string" },
    help: { type: "boolean", default: false },
  },
});
const [command] = positionals;
if (values.help || !command) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 1);
}
if (command !== "verify" && command !== "sign") fail(`unknown command ${command}: use verify or sign (see --help)`);
const expected = values.expect === undefined ? null : /^(\d+):([0-9a-f]{64})$/i.exec(values.expect.trim());
if (values.expect !== undefined && !expected) {
  fail(
    `--expect ${values.expect} is not COUNT:HASH, the entries and newest hash a digest carried (42:3fa9…, 64 hex digits)`,
  );
}
const key = checksKeyFromEnv(process.env);
if (command === "sign" && !key) fail("sign needs CHECKS_KEY, the key kept outside the database that signs the head");

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
  const log = createChecksLog(state, { appVersion: APP_VERSION, key });
  // Entry COUNT as the digest named it, looked at before signing: a head that lost it is never signed.
  const missing = expected && (await missingFromDigest(log, Number(expected[1]), expected[2]!.toLowerCase()));
  const chain = command === "sign" && !missing ? (await log.sign())! : await log.verify();
  if (!chain.ok) {
    console.error(`The record of checks is broken at ${chain.problem}.`);
    console.error(`It holds ${chain.entries} entries; newest hash ${chain.head ?? "(none)"}.`);
    process.exitCode = 1;
  }
  if (missing) {
    console.error(missing);
    process.exitCode = 1;
  }
  if (chain.ok && !missing) {
    const signed = command === "sign" ? ". Its head is now signed with CHECKS_KEY." : "";
    console.log(
      `The record of checks holds: ${chain.entries} entries; newest hash ${chain.head ?? "(none: it is empty)"}${expected ? `; it still holds entry ${expected[1]} as the digest carried it` : ""}${signed}`,
    );
  }
} catch (error) {
  fail(`cannot read the record of checks in ${state.label}: ${(error as Error).message}`);
} finally {
  await state.close();
  sqlite?.close();
}

/** Why the record no longer holds entry `count` with `hash`, as a digest carried them; null when it does. */
async function missingFromDigest(log: ChecksLog, count: number, hash: string) {
  if (count === 0) return null;
  const entry = await log.get(count);
  const { entries } = await log.head();
  if (!entry) {
    return `The record of checks no longer holds entry ${count}, which the digest carried: its head names ${entries} entries (the newest entries were removed, and the head rewritten).`;
  }
  if (entry.hash !== hash) {
    return `The record of checks' entry ${count} is not the one the digest carried: its hash is ${entry.hash}, not ${hash} (the record was rewritten from there or before).`;
  }
  return null;
}
