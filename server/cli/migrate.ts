import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { databaseUrlFromEnv, migrateStateDb, openStateDb } from "../db/state-db.ts";
import { SNAPSHOT_MIGRATIONS, SNAPSHOT_TABLE_PREFIX } from "../snapshots/snapshot-store.ts";
import { STORE_VERSION, storeVersion } from "../store/migrations.ts";
import { DatabaseFileError, openDatabase } from "../store/open-database.ts";
import { SERVICE_MIGRATIONS } from "../store/service-state.ts";
import { SYNC_ROUND_MIGRATIONS } from "../sync/node-sync.ts";
import { openAppState } from "../web/app-db.ts";
import { fail } from "./fail.ts";

const DEFAULT_DB = "data/licenses.sqlite";

const USAGE = `Brings a database written by an older License Lookup up to this version's store (version ${STORE_VERSION}).

usage: npm run migrate -- [--db FILE]

  --db FILE   the SQLite license database (default ${DEFAULT_DB}; with DATABASE_URL, only when it exists or is named)
  --help      this text

With DATABASE_URL (postgres://…), the tables there are brought up to date too: the service's API keys, the
published snapshots, the syncs' rounds, and the app's users, sessions, record of checks and watchlist (several nodes: run it once,
before starting the new version's nodes; a node starting alone migrates them itself, one node at a time).

Each step is printed as it runs. The service refuses to serve an older store and names this
command; imports, npm run demo, npm run keys and npm start migrate the file they open by themselves.`;

const { values } = parseArgs({
  options: {
    db: { type: "string" },
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
}
