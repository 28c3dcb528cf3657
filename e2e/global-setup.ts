import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { coRecentlyApproved } from "../server/data/sources/co-led/fetch.ts";
import { njRetailLicenseReport } from "../server/data/sources/nj-abc/fetch.ts";
import type { LinkedFileSource, SocrataSource } from "../server/data/sync/feed-definition.ts";
import { njReportsPage, startAgencyReplay } from "../server/testing/agency-replay.ts";
import { startOidcProvider } from "../server/testing/oidc-provider.ts";
import { addUser, sessionCookie } from "./accounts.ts";

/**
 * The real stack on a fresh database: `npm run demo` and `npm run keys` seed it, `npm run build` builds the app and
 * the servers, `npm run api` serves /v2 and `npm run serve` serves the app with the key in its environment only.
 * Tests learn the addresses, the key and the database from E2E_* variables.
 *
 * A second stack serves the real state exports of ../shared/data (`npm run import -- --all`), with
 * a key for every state: what a clerk sees on real records (E2E_REAL_*); a state they hold
 * nothing of (Florida) reads not covered.
 *
 * Each app server has its own database (E2E_APP_DB, E2E_REAL_APP_DB) and session cookie name (cookies ignore the
 * port). Every spec's browser starts signed in as a member, CLERK, on both (e2e/.auth/clerk.json); the real stack
 * also signs in through an OpenID provider on loopback, which knows OIDC_MEMBER (an account added beforehand) and
 * any stranger (refused).
 */
const API_PORT = Number(process.env.E2E_API_PORT ?? 18787);
const APP_PORT = Number(process.env.E2E_APP_PORT ?? 14173);
export const REAL_API_PORT = API_PORT + 1;
export const REAL_APP_PORT = APP_PORT + 1;
export const REAL_DATA = resolve(import.meta.dirname, "../../shared/data");
export const STORAGE_STATE = resolve(import.meta.dirname, ".auth/clerk.json");
/** Accounts of both app servers (password E2E_PASSWORD); the real one holds them all. */
export const CLERK = { email: "clerk@example.com", name: "Casey Clerk" };
export const MARIA = { email: "maria.lopez@example.com", name: "Maria Lopez" };
export const AUDITOR = { email: "audrey@example.com", name: "Audrey Auditor" };
export const ADMIN = { email: "ada@example.com", name: "Ada Admin" };
export const OIDC_MEMBER = { email: "olivia@example.com", name: "Olivia Okta" };
const HOST = "127.0.0.1";

export default async function globalSetup() {
  const dir = mkdtempSync(join(tmpdir(), "license-lookup-e2e-"));
  const db = join(dir, "licenses.sqlite");
  const servers: ChildProcess[] = [];
  let closeProvider = async () => {};
  const teardown = async () => {
    await Promise.all(servers.map(stop));
    await closeProvider();
    rmSync(dir, { recursive: true, force: true });
  };

  // The build beside the imports: each is one process, and the imports need nothing built.
  const build = npmBeside(["run", "build"], join(dir, "build.log"));
  try {
    // nj has records, but the key leaves it out: the app must call it unavailable.
    npm(["run", "demo", "--", "--db", db, "--states", "ny,ma,nj"]);
    const key = newKey(db, "ny,ma");
    if (!existsSync(REAL_DATA)) throw new Error(`the real state exports are not at ${REAL_DATA}`);
    const realDb = join(dir, "real.sqlite");
    npm(["run", "import", "--", "--db", realDb, "--all", REAL_DATA]);
    importHalfOfMichigan(dir, realDb);
    await syncFromReplay(realDb);
    const realKey = newKey(realDb, "all");
    await build.done;

    const realAppUrl = `http://${HOST}:${REAL_APP_PORT}`;
    const provider = await startOidcProvider({
      accounts: [{ ...OIDC_MEMBER, email_verified: true }],
      redirectUris: [`${realAppUrl}/api/sign-in/oidc/callback`],
    });
    closeProvider = provider.close;

    // The two stacks start together: each waits on its servers most of the time. Both settle before a failure
    // tears down, so no server of either is left running.
    const [demo, real] = await bothSettled(
      startStack(servers, db, key, API_PORT, APP_PORT, dir, [CLERK]),
      startStack(servers, realDb, realKey, REAL_API_PORT, REAL_APP_PORT, dir, [CLERK, MARIA, AUDITOR, ADMIN], {
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: provider.clientId,
        OIDC_CLIENT_SECRET: provider.clientSecret,
        OIDC_NAME: "Example Okta",
      }),
    );
    // Added beforehand, without a password: the identity provider vouches for them.
    npm(["run", "users", "--", "add", OIDC_MEMBER.email, "--role", "member", "--name", OIDC_MEMBER.name], {
      APP_DB: real.appDb,
    });
    mkdirSync(resolve(STORAGE_STATE, ".."), { recursive: true });
    const cookies = [
      await sessionCookie(demo.appUrl, CLERK.email, demo.cookieName),
      await sessionCookie(real.appUrl, CLERK.email, real.cookieName),
    ];
    writeFileSync(STORAGE_STATE, JSON.stringify({ cookies, origins: [] }, null, 2));

    // E2E_DB lets a spec start a service of its own on the same data, to stop and start at will.
    Object.assign(process.env, {
      E2E_API_URL: demo.apiUrl,
      E2E_API_KEY: key,
      E2E_APP_URL: demo.appUrl,
      E2E_APP_DB: demo.appDb,
      E2E_DB: db,
      E2E_REAL_API_URL: real.apiUrl,
      E2E_REAL_API_KEY: realKey,
      E2E_REAL_APP_URL: real.appUrl,
      E2E_REAL_APP_DB: real.appDb,
      E2E_REAL_SESSION_COOKIE: real.cookieName,
      E2E_REFUSED_LICENSE: MI_DROPPED,
    });
  } catch (error) {
    build.child.kill();
    await teardown();
    throw error;
  }
  return teardown;
}

const MI_LIST = join(REAL_DATA, "mi", "Liquor_Licenses.csv");
/** On the list's second half, so the half the guard refuses would have stopped serving it. */
const MI_DROPPED = "L-000166961";

/**
 * The first half of Michigan's list, dated after it (so it is the newer list), imported by hand as an operator would:
 * the shrink guard must refuse it and record why (about 2 s).
 */
function importHalfOfMichigan(dir: string, db: string): void {
  const lines = readFileSync(MI_LIST, "utf8").split("\n");
  const half = lines.slice(0, Math.ceil(lines.length / 2));
  if (half.some((line) => line.includes(MI_DROPPED))) throw new Error(`${MI_DROPPED} is in the half kept`);
  mkdirSync(join(dir, "half"));
  const file = join(dir, "half", "Liquor_Licenses.csv");
  writeFileSync(file, `${half.join("\n")}\n`);
  const run = spawnSync(
    "npm",
    ["--silent", "run", "import", "--", "--db", db, "--source", "mi-mlcc", "--as-of", "2021-05-01", file],
    { encoding: "utf8" },
  );
  if (run.status === 0 || !run.stderr.includes("would stop serving"))
    throw new Error(
      `the shrink guard did not refuse half of Michigan's list (${run.status}):\n${run.stderr}${run.stdout}`,
    );
}

/** When the replayed Colorado data set says it was last updated: 2026-11-20. */
const CO_ROWS_UPDATED_AT = Date.parse("2026-11-20T15:00:00Z") / 1000;
const NJ_REPORT = "https://www.njoag.gov/wp-content/uploads/2026/11/RETAIL-LICENSE-REPORT-NOVEMBER-2026.xlsx";

/**
 * `npm run sync` as a deployment runs it, against a replay of two agencies: Colorado's data set serves its real
 * list (a check that brings it in), and New Jersey's reports page links a report that comes back a web page (a
 * check refused, New Jersey's records kept). What the Data page then says of both is the sync's own record.
 */
async function syncFromReplay(db: string): Promise<void> {
  const replay = await startAgencyReplay();
  try {
    const coList = readFileSync(join(REAL_DATA, "co", "Recently_Approved_Liquor_Licenses_in_Colorado.csv"), "utf8");
    replay.publishSocrata(coRecentlyApproved.source as SocrataSource, coList, CO_ROWS_UPDATED_AT);
    const nj = njRetailLicenseReport.source as LinkedFileSource;
    replay.publishPage(nj.page, njReportsPage([{ url: NJ_REPORT, label: "Retail License Report November 2026" }]));
    replay.publishPage(NJ_REPORT, "<!DOCTYPE html><html><body><h1>Access denied</h1></body></html>");
    // Not spawnSync: the replay answers from this process's event loop.
    const run = await npmAsync([
      "run",
      "sync",
      "--",
      "--db",
      db,
      "--origin",
      replay.origin,
      "--states",
      "co,nj",
      "--every",
      "0",
    ]);
    if (
      run.code !== 1 ||
      !/co-led\/recently-approved: updated/.test(run.stdout) ||
      !/nj-abc.*refused/.test(run.stdout)
    ) {
      throw new Error(
        `the sync against the replay did not update CO and refuse NJ (${run.code}):\n${run.stdout}${run.stderr}`,
      );
    }
  } finally {
    await replay.close();
  }
}

function npmAsync(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["--silent", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

function newKey(db: string, states: string): string {
  return npm(["run", "keys", "--", "create", "--db", db, "--states", states, "--label", "e2e"])
    .trim()
    .split("\n")
    .at(-1)!;
}

/**
 * `npm run api` on a database and `npm run serve` in front of it with the key, its own app database in `dir` and
 * `users` added there by `npm run users`; their addresses.
 */
async function startStack(
  servers: ChildProcess[],
  db: string,
  key: string,
  apiPort: number,
  appPort: number,
  dir: string,
  users: readonly { email: string; name: string }[],
  env: Record<string, string> = {},
) {
  const apiUrl = `http://${HOST}:${apiPort}`;
  const api = start(["run", "api", "--", "--db", db, "--port", String(apiPort), "--host", HOST, "--quiet"]);
  servers.push(api);
  await waitForHttp(`${apiUrl}/v2/states`, api);

  const appUrl = `http://${HOST}:${appPort}`;
  const appDb = join(dir, `app-${appPort}.sqlite`);
  for (const user of users) {
    addUser(appDb, user.email, user === ADMIN ? "admin" : user === AUDITOR ? "auditor" : "member", user.name);
  }
  const cookieName = `lls_session_${appPort}`;
  const web = start(["run", "serve"], {
    LLS_BASE_URL: apiUrl,
    LLS_API_KEY: key,
    HOST,
    PORT: String(appPort),
    APP_DB: appDb,
    SESSION_COOKIE: cookieName,
    LOG: "0",
    ...env,
  });
  servers.push(web);
  await waitForHttp(`${appUrl}/`, web);
  return { apiUrl, appUrl, appDb, cookieName };
}

function npm(args: string[], env: Record<string, string> = {}): string {
  const run = spawnSync("npm", ["--silent", ...args], { encoding: "utf8", env: { ...process.env, ...env } });
  if (run.status !== 0) throw new Error(`npm ${args.join(" ")} failed (${run.status}):\n${run.stderr}${run.stdout}`);
  return run.stdout;
}

/** Both values, once both promises have settled; the first failure otherwise. */
async function bothSettled<A, B>(a: Promise<A>, b: Promise<B>): Promise<[A, B]> {
  const [x, y] = await Promise.allSettled([a, b]);
  if (x.status === "rejected") throw x.reason;
  if (y.status === "rejected") throw y.reason;
  return [x.value, y.value];
}

/** `npm ARGS` started now, its output into `log`; `done` resolves once it succeeded, or rejects with its output. */
function npmBeside(args: string[], log: string): { child: ChildProcess; done: Promise<void> } {
  const out = openSync(log, "w");
  const child = spawn("npm", ["--silent", ...args], { stdio: ["ignore", out, out] });
  closeSync(out);
  const done = new Promise<void>((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`npm ${args.join(" ")} failed (${code}):\n${readFileSync(log, "utf8")}`)),
    );
  });
  // Seen by the await above it; a failure before that await tears down, and would otherwise go unhandled.
  done.catch(() => {});
  return { child, done };
}

/** In its own process group, so that `stop` can clear away whatever a command that ignores its signal leaves. */
export function start(args: string[], env: Record<string, string> = {}): ChildProcess {
  const child = spawn("npm", ["--silent", ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  child.on("exit", (code, signal) => {
    if (code && !signal) console.error(`npm ${args.join(" ")} exited with ${code}`);
  });
  return child;
}

/** SIGTERM to npm's process, as an operator stops it; then SIGKILL to whatever is left of its group, after 5 s at most. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.pid === undefined) return;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await Promise.race([exited, sleep(5_000, undefined, { ref: false })]);
  }
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // Nothing is left.
  }
}

export async function waitForHttp(url: string, server: ChildProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // A server that exited (a port already taken) must not pass for whatever else answers there.
    if (server.exitCode !== null) throw new Error(`the server for ${url} exited with ${server.exitCode}`);
    try {
      await fetch(url); // any answer, 401 included, means it listens
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`nothing answered at ${url} within ${timeoutMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
