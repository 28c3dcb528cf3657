import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { DEMO_STATES } from "../data/demo/generate-licenses.ts";
import { fillDemo } from "../data/demo/fill-demo.ts";
import { closeOnSignals } from "../http/close-on-signals.ts";
import { openStateDb } from "../db/state-db.ts";
import { startServer } from "../service/main.ts";
import { ALL_STATES, createKeyRepo } from "../service/key-repo.ts";
import { createLicenseRepo } from "../store/license-repo.ts";
import { openDatabase } from "../store/open-database.ts";
import { fail } from "./fail.ts";
import { startApp } from "./start-app.ts";
import { appServicesFromEnv } from "../web/app-services.ts";

/**
 * `npm start`: on a fresh clone, the demo database and a local key, the service, and the app.
 * With LLS_BASE_URL (and LLS_API_KEY) set, only the app, against that service.
 */
const DB = process.env.LLS_DB ?? "data/licenses.sqlite";
// One key file per database, so switching LLS_DB does not replace another database's key.
const KEY_FILE = `${DB}.key`;
const HOST = "127.0.0.1";
const API_PORT = Number(process.env.LLS_API_PORT ?? 8787);
const DEMO_PER_STATE = 2000;

try {
  let apiBaseUrl = process.env.LLS_BASE_URL;
  let apiKey = process.env.LLS_API_KEY ?? "";
  let stopApi = async () => {};
  if (!apiBaseUrl) {
    apiKey = await prepareLocalData();
    const { app, url } = await startServer({ db: DB, port: API_PORT, host: HOST });
    stopApi = () => app.close();
    apiBaseUrl = url;
    console.log(`License API: ${url}/v2 (database ${DB}; docs at ${url}/v2/docs)`);
  } else if (!apiKey) {
    fail("LLS_BASE_URL is set but LLS_API_KEY is not: give the key for that service");
  }
  const appPort = Number(process.env.LLS_APP_PORT ?? 5173);
  const services = await appServicesFromEnv(process.env, {
    service: { baseUrl: apiBaseUrl, apiKey },
    appUrl: `http://${HOST}:${appPort}`,
    development: true,
    log: (line) => console.log(line),
  });
  const app = await startApp({
    apiBaseUrl,
    apiKey,
    port: appPort,
    watchlist: services.watchlist,
    signIn: services.signIn,
    checks: services.checks,
  });
  console.log(
    services.where === services.file
      ? `App database: ${services.file} (users, the record of checks, the watchlist)`
      : `App database: ${services.where} (users, the record of checks); the watchlist in ${services.file}`,
  );
  console.log("Development sign-in: everyone who opens it is the local administrator (npm run serve signs people in).");
  closeOnSignals(async () => {
    await app.close();
    await services.close();
    await stopApi();
  });
  console.log(`\nLicense Lookup is running: open ${app.url}\n(Ctrl+C stops it)`);
} catch (error) {
  fail((error as Error).message);
}

/** Creates the demo database and a local all-states key when absent; returns the key. */
async function prepareLocalData(): Promise<string> {
  mkdirSync(dirname(DB), { recursive: true });
  const db = openDatabase(DB, { create: true });
  try {
    // No live data (a new file, or a first start that was interrupted): fill it.
    if (createLicenseRepo(db).coverage().length === 0) {
      console.log(`Creating ${DB} with demo data for ${DEMO_STATES.join(", ")} (${DEMO_PER_STATE} licenses each)...`);
      await fillDemo(db, DEMO_STATES, DEMO_PER_STATE);
    }
    return await localKey(db);
  } finally {
    db.close();
  }
}

async function localKey(db: ReturnType<typeof openDatabase>): Promise<string> {
  const keys = createKeyRepo(openStateDb({ sqlite: db }));
  const saved = existsSync(KEY_FILE) ? readFileSync(KEY_FILE, "utf8").trim() : "";
  if (saved && (await keys.verify(saved))) return saved;
  // The key is kept in a git-ignored file so the app's proxy can present it; the database holds its hash.
  const { key } = await keys.create([ALL_STATES], "local (npm start)");
  writeFileSync(KEY_FILE, `${key}\n`, { mode: 0o600 });
  return key;
}
