import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../testing/free-port.ts";
import { licenseFixture } from "../testing/license-fixture.ts";
import { openStateDb } from "../db/state-db.ts";
import { createKeyRepo } from "../store/key-repo.ts";
import { openDatabase } from "../store/open-database.ts";
import { replaceState } from "../store/replace-state.ts";

const API = join(import.meta.dirname, "api.ts");
// The source in one process, the TypeScript loader inside it: a signal reaches the server, not a relay.
const SERVE_SOURCE = ["--import", "tsx", API];
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
