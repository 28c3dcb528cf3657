import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../testing/free-port.ts";
import { freshPostgresUrl } from "../testing/state-backends.ts";
import { licenseFixture } from "../testing/license-fixture.ts";
import { openStateDb } from "../db/state-db.ts";
import { createKeyRepo } from "../service/key-repo.ts";
import { openDatabase } from "../store/open-database.ts";
import { replaceState } from "../store/replace-state.ts";
import { cliCommand } from "../testing/built-cli.ts";

// The program in one process, as `npm run api` execs it: a signal reaches the server, not a relay.
const SERVE_SOURCE = cliCommand("api");
let dir: string;
let db: string;
let key: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "api-cli-"));
  db = join(dir, "licenses.sqlite");
  const handle = openDatabase(db, { create: true });
  await replaceState(handle, { state: "ny", source: "test", asOf: null }, [licenseFixture({ license: "0012345" })]);
  key = (await createKeyRepo(openStateDb({ sqlite: handle })).create(["ny"])).key;
  handle.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runApi(args: string[]) {
  return spawnSync(process.execPath, [...SERVE_SOURCE, "--quiet", ...args], { encoding: "utf8", timeout: 20_000 });
}

describe("npm run api: start-up failures say what to do", () => {
  it("refuses a missing database file", () => {
    const result = runApi(["--db", join(dir, "missing.sqlite"), "--port", "0"]);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/missing\.sqlite does not exist: create it with `npm run demo/);
    expect(existsSync(join(dir, "missing.sqlite"))).toBe(false);
  });

  it("refuses a file that is not a database", () => {
    const corrupt = join(dir, "corrupt.sqlite");
    writeFileSync(corrupt, "this is not SQLite ".repeat(500));
    const result = runApi(["--db", corrupt, "--port", "0"]);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/cannot open .*corrupt\.sqlite.*restore it from a backup/);
  });

  it("refuses a busy port", async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const { port } = holder.address() as AddressInfo;
    const result = runApi(["--db", db, "--port", String(port)]);
    holder.close();
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(new RegExp(`port ${port} on 127.0.0.1 is already in use`));
  });
});

describe("npm run api: SIGTERM", () => {
  it("answers, refuses a key revoked from another process on its next request, and on SIGTERM closes the database and exits 0", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [...SERVE_SOURCE, "--quiet", "--db", db, "--port", String(port)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start: ${stderr}`)), 15_000);
      child.stderr.on("data", () => stderr.includes("listening") && (clearTimeout(timer), resolve()));
    });
    const url = `http://127.0.0.1:${port}/v2/license/ny/0012345`;
    const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
    expect(response.status).toBe(200);
    // As `npm run keys -- revoke` would: another connection, another process's view of the file.
    const other = openDatabase(db);
    const keys = createKeyRepo(openStateDb({ sqlite: other }));
    const doomed = await keys.create(["ny"]);
    expect((await fetch(url, { headers: { authorization: `Bearer ${doomed.key}` } })).status).toBe(200);
    await keys.revoke(doomed.id);
    other.close();
    expect((await fetch(url, { headers: { authorization: `Bearer ${doomed.key}` } })).status).toBe(401);
    // The service has the database open in WAL mode: the -wal file exists until it closes cleanly.
    expect(existsSync(`${db}-wal`)).toBe(true);
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(existsSync(`${db}-wal`)).toBe(false);
  }, 30_000);
});

/** Makes a database refuse (and drop) every connection, as if its server were gone, or take them again. */
async function refuseConnections(url: string, refuse: boolean) {
  const name = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: url.replace(/\/[^/]+$/, "/postgres") });
  await admin.connect();
  try {
    await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS ${!refuse}`);
    if (refuse) await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [name]);
  } finally {
    await admin.end();
  }
}

/** `npm run keys` with this environment; its stdout's lines. */
function runKeys(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, [...cliCommand("keys"), ...args], {
    encoding: "utf8",
    timeout: 20_000,
    env: { ...process.env, ...env },
  });
  if (result.status !== 0) throw new Error(`npm run keys ${args.join(" ")} failed: ${result.stderr}`);
  return result.stdout.trim().split("\n");
}

describe("npm run api and npm run keys with DATABASE_URL: the keys in PostgreSQL", () => {
  it("refuses to start, saying what to check, when PostgreSQL cannot be reached", async () => {
    const nowhere = `postgres://postgres@127.0.0.1:${await freePort()}/none`;
    const result = spawnSync(process.execPath, [...SERVE_SOURCE, "--quiet", "--db", db, "--port", "0"], {
      encoding: "utf8",
      timeout: 20_000,
      env: { ...process.env, DATABASE_URL: nowhere },
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(
      /cannot use PostgreSQL at .*none.* check DATABASE_URL and that PostgreSQL is running/,
    );
  });

  it("accepts a key made with npm run keys at once, refuses it within 2 s of its revocation; PostgreSQL away, serves the keys it holds and is not ready", async () => {
    const env = { DATABASE_URL: await freshPostgresUrl("api_cli") };
    const port = await freePort();
    const child = spawn(process.execPath, [...SERVE_SOURCE, "--quiet", "--db", db, "--port", String(port)], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...env },
    });
    try {
      let stderr = "";
      child.stderr.on("data", (chunk) => (stderr += chunk));
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start: ${stderr}`)), 15_000);
        child.stderr.on("data", () => stderr.includes("listening") && (clearTimeout(timer), resolve()));
      });
      const base = `http://127.0.0.1:${port}`;
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      // The license file's own key is not the service's any more: keys live in PostgreSQL.
      const url = `${base}/v2/license/ny/0012345`;
      expect((await fetch(url, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);

      const created = runKeys(["create", "--states", "ny", "--label", "node test"], env);
      const fresh = created.at(-1)!;
      const id = /Created key (\d+)/.exec(created[0]!)![1]!;
      const headers = { authorization: `Bearer ${fresh}` };
      expect((await fetch(url, { headers })).status).toBe(200);
      expect(runKeys(["list"], env).join("\n")).toMatch(new RegExp(`^${id}\\tny\\t.*\\tnode test$`, "m"));

      expect(runKeys(["revoke", id], env).join("\n")).toMatch(/every service node refuses it within 2 seconds/);
      // From the revocation's commit, which is before the command's exit.
      const revoked = performance.now();
      let status = 200;
      while (status !== 401 && performance.now() - revoked < 5000) {
        status = (await fetch(url, { headers })).status;
      }
      expect(status).toBe(401);
      expect(performance.now() - revoked).toBeLessThan(2000);

      // PostgreSQL away: the keys the node holds still serve, and /readyz takes it out of a balancer.
      const live = { authorization: `Bearer ${runKeys(["create", "--states", "ny"], env).at(-1)!}` };
      expect((await fetch(url, { headers: live })).status).toBe(200);
      await refuseConnections(env.DATABASE_URL, true);
      try {
        const ready = await fetch(`${base}/readyz`);
        expect(ready.status).toBe(503);
        expect(((await ready.json()) as { detail: string }).detail).toMatch(/PostgreSQL \(.*\) is unreachable/);
        expect((await fetch(url, { headers: live })).status).toBe(200);
      } finally {
        await refuseConnections(env.DATABASE_URL, false);
      }
    } finally {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
  }, 60_000);
});
