import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { copyTables, TargetNotEmptyError, type CopySource } from "../db/copy-tables.ts";
import { databaseUrlFromEnv, migrateStateDb, openStateDb } from "../db/state-db.ts";
import { SNAPSHOT_MIGRATIONS, SNAPSHOT_TABLE_PREFIX } from "../store/snapshots/snapshot-store.ts";
import { STORE_VERSION, storeVersion } from "../store/migrations.ts";
import { DatabaseFileError, openDatabase } from "../store/open-database.ts";
import { SERVICE_MIGRATIONS, SERVICE_TABLES } from "../store/service-state.ts";
import { SYNC_ROUND_MIGRATIONS } from "../data/sync/node-sync.ts";
import { APP_VERSION } from "../web/app-version.ts";
import { createChecksLog } from "../web/checks/checks-log.ts";
import { APP_TABLES, DEFAULT_APP_DB, openAppState } from "../web/app-db.ts";
import { fail } from "./fail.ts";

const DEFAULT_DB = "data/licenses.sqlite";

const USAGE = `Brings a database written by an older License Lookup up to this version's store (version ${STORE_VERSION}).

usage: npm run migrate -- [--db FILE]
       DATABASE_URL=postgres://… npm run migrate -- --take-over [--db FILE] [--app-db FILE]

  --db FILE      the SQLite license database (default ${DEFAULT_DB}; with DATABASE_URL, only when it exists or is named)
  --take-over    moving from one machine to several: copies the API keys of --db FILE, and the users, sessions,
                 record of checks and watchlist of --app-db FILE, into DATABASE_URL's PostgreSQL (see below)
  --app-db FILE  the app's SQLite database to take over (default APP_DB, else ${DEFAULT_APP_DB})
  --help         this text

With DATABASE_URL (postgres://…), the tables there are brought up to date too: the service's API keys, the
published snapshots, the syncs' rounds, and the app's users, sessions, record of checks and watchlist (several nodes: run it once,
before starting the new version's nodes; a node starting alone migrates them itself, one node at a time).

--take-over copies every row, ids and hashes as they are, in one transaction, into tables that must still be
empty (PostgreSQL holding any key, user, check or watched license refuses it, copying nothing: two records of
checks are never merged), then walks the copied record of checks' chain. The files are left as they are; stop
the single node first, and start the nodes with DATABASE_URL after. Keys, users and their sessions go on working.

Each step is printed as it runs. The service refuses to serve an older store and names this
command; imports, npm run demo, npm run keys and npm start migrate the file they open by themselves.`;

const { values } = parseArgs({
  options: {
    db: { type: "string" },
    "take-over": { type: "boolean", default: false },
    "app-db": { type: "string" },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

let databaseUrl: string | null = null;
try {
  databaseUrl = databaseUrlFromEnv(process.env);
} catch (error) {
  fail((error as Error).message);
}

if (values["take-over"] && !databaseUrl) {
  fail("--take-over copies into PostgreSQL: set DATABASE_URL=postgres://… (see --help)");
}

const file = values.db ?? DEFAULT_DB;
if (!databaseUrl || values.db !== undefined || existsSync(file)) {
  try {
    const db = openDatabase(file);
    console.log(`${file} is at store version ${storeVersion(db)}, this License Lookup's.`);
    db.close();
  } catch (error) {
    if (error instanceof DatabaseFileError) fail(error.message);
    throw error;
  }
}

if (databaseUrl) {
  const service = openStateDb({ url: databaseUrl, poolSize: 2 });
  try {
    const steps = [
      ...(await migrateStateDb(service, "service", SERVICE_MIGRATIONS)),
      ...(await migrateStateDb(service, SNAPSHOT_TABLE_PREFIX, SNAPSHOT_MIGRATIONS)),
      ...(await migrateStateDb(service, "sync_rounds", SYNC_ROUND_MIGRATIONS)),
    ];
    await service.close();
    // The app's migrations, with the same lock and order as `npm run serve` runs them at its start.
    const app = await openAppState({ url: databaseUrl, file: "" });
    await app.close();
    for (const step of steps) console.log(`${service.label}: migrated to ${step}`);
    console.log(`${service.label} is up to date: keys, snapshots, sync rounds and the app's tables.`);
  } catch (error) {
    await service.close().catch(() => {});
    fail(`cannot bring PostgreSQL up to date (${(error as Error).message}): check DATABASE_URL and that it runs`);
  }
  if (values["take-over"]) await takeOver(databaseUrl);
}

/** The single node's keys and app state copied into PostgreSQL, the copied record of checks walked. */
async function takeOver(url: string) {
  const appFile = values["app-db"] ?? (process.env.APP_DB || DEFAULT_APP_DB);
  const [hasKeys, hasApp] = [existsSync(file), existsSync(appFile)];
  if (!hasKeys && !hasApp) fail(`neither ${file} nor ${appFile} exists: there is nothing to take over`);
  const files = [hasKeys && file, hasApp && appFile].filter(Boolean);
  const sources: CopySource[] = [];
  const target = openStateDb({ url, poolSize: 2 });
  try {
    if (hasKeys) sources.push({ from: openStateDb({ sqlite: openDatabase(file) }), tables: SERVICE_TABLES });
    else console.log(`no license database at ${file}: no API keys to copy`);
    if (hasApp) sources.push({ from: await openAppState({ file: appFile }), tables: APP_TABLES });
    else console.log(`no app database at ${appFile}: no users, record of checks or watchlist to copy`);
    const copied = await copyTables(target, sources);
    const count = (table: string) => copied.find((c) => c.table === table)?.rows ?? 0;
    const chain = await createChecksLog(target, { appVersion: APP_VERSION }).verify();
    console.log(
      `Took over into ${target.label}: ${count("api_keys")} API keys, ${count("users")} users, ` +
        `${count("sessions")} sessions, ${count("log_entries")} checks recorded, ${count("watched")} watched ` +
        `licenses (${count("checks")} watchlist checks, ${count("changes")} changes, ${count("deliveries")} alerts).`,
    );
    if (!chain.ok) fail(`the record of checks copied is broken at ${chain.problem}: it was broken in ${appFile} too`);
    console.log(`The record of checks there holds: ${chain.entries} entries; newest hash ${chain.head ?? "(none)"}`);
    console.log(`${files.join(" and ")} left as they were: start the nodes with this DATABASE_URL.`);
  } catch (error) {
    if (error instanceof TargetNotEmptyError) {
      fail(
        `${target.label} is not empty: ${error.message}. --take-over copies only into empty tables, so that two ` +
          `records of checks are never merged; nothing was copied`,
      );
    }
    fail(`the take-over failed (${(error as Error).message}); nothing was copied`);
  } finally {
    await target.close();
    for (const { from } of sources) await from.close();
  }
}
