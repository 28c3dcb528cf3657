import { spawnSync, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { freePort } from "../server/testing/free-port.ts";
import { REAL_DATA, start, waitForHttp } from "./global-setup.ts";

/** `npm run …` as a person would; its output, or an error that holds it. */
export function npm(args: string[]): string {
  const run = spawnSync("npm", ["--silent", ...args], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`npm ${args.join(" ")} failed (${run.status}):\n${run.stderr}${run.stdout}`);
  return run.stdout;
}

/** New York City's real list, as the SLA publishes it: a spec changes it and imports it again. */
export const NYC_BARS = join(REAL_DATA, "ny", "nyc_bars.csv");

/**
 * A stack of a spec's own, for a spec that changes the data under it: New York City's real list imported into
 * `dir`, the service over it and the app's server (`npm run serve`, with `env`) over that with a key for New York.
 * Its servers are pushed onto `servers` as they start, for the spec to stop whatever happens.
 */
export async function startNycStack(dir: string, servers: ChildProcess[], env: Record<string, string> = {}) {
  const db = join(dir, "licenses.sqlite");
  const appDb = join(dir, "app.sqlite");
  npm(["run", "import", "--", "--db", db, "--source", "ny-sla", NYC_BARS]);
  const key = npm(["run", "keys", "--", "create", "--db", db, "--states", "ny", "--label", "e2e stack"])
    .trim()
    .split("\n")
    .at(-1)!;
  const [apiPort, appPort] = [await freePort(), await freePort()];
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const appUrl = `http://127.0.0.1:${appPort}`;
  const api = start(["run", "api", "--", "--db", db, "--port", String(apiPort), "--host", "127.0.0.1", "--quiet"]);
  servers.push(api);
  await waitForHttp(`${apiUrl}/v2/states`, api);
  const app = start(["run", "serve"], {
    LLS_BASE_URL: apiUrl,
    LLS_API_KEY: key,
    HOST: "127.0.0.1",
    PORT: String(appPort),
    LOG: "0",
    APP_DB: appDb,
    SESSION_COOKIE: `lls_session_${appPort}`,
    ...env,
  });
  servers.push(app);
  await waitForHttp(`${appUrl}/`, app);
  /** Imports the agency's next list (`file`) as of `asOf`, while both servers run. */
  const importNext = (file: string, asOf: string) =>
    npm(["run", "import", "--", "--db", db, "--source", "ny-sla", "--as-of", asOf, file]);
  return { db, appDb, apiUrl, appUrl, importNext };
}
