import Database from "better-sqlite3";
import pg from "pg";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshPostgresUrl } from "../testing/state-backends.ts";
import { openAppState } from "../web/app-db.ts";
import { createChecksLog } from "../web/checks/checks-log.ts";
import { cliCommand } from "../testing/built-cli.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "checks-cli-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `npm run checks -- ARGS` as a person would. */
function runChecks(args: string[], env: Record<string, string> = {}) {
  const { status, stdout, stderr } = spawnSync(process.execPath, [...cliCommand("checks"), ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, APP_DB: "", DATABASE_URL: "", ...env },
  });
  return { status, stdout, stderr };
}

/** An app database holding a record of `count` checks: a SQLite file, or PostgreSQL at `url`. */
async function appDatabase(name: string, count: number, url: string | null = null) {
  const file = join(dir, name);
  const state = await openAppState({ url, file });
  const log = createChecksLog(state, { appVersion: "test" });
  for (let i = 1; i <= count; i++) await log.append({ action: "verify", user: null, state: "ny", license: String(i) });
  const head = (await log.head()).hash;
  await state.close();
  return { file, head };
}

describe("npm run checks -- verify", () => {
  it("exits 0 and gives the newest hash when the chain holds, the database named by APP_DB", async () => {
    const { file, head } = await appDatabase("holds.sqlite", 3);
    const run = runChecks(["verify"], { APP_DB: file });
    expect(run).toMatchObject({ status: 0, stderr: "" });
    expect(run.stdout.trim()).toBe(`The record of checks holds: 3 entries; newest hash ${head}`);
  });

  it("walks the record on PostgreSQL when DATABASE_URL names it, and names a broken entry there too", async () => {
    const url = await freshPostgresUrl("checks_cli");
    const { head } = await appDatabase("unused.sqlite", 3, url);
    const run = runChecks(["verify"], { DATABASE_URL: url, APP_DB: join(dir, "unused.sqlite") });
    expect(run).toMatchObject({ status: 0, stderr: "" });
    expect(run.stdout.trim()).toBe(`The record of checks holds: 3 entries; newest hash ${head}`);

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query("UPDATE log_entries SET license = '9' WHERE id = 2");
    await client.end();
    const broken = runChecks(["verify"], { DATABASE_URL: url });
    expect(broken.status).toBe(1);
    expect(broken.stderr).toContain("entry 2: its content does not match its hash");
  });

  it("exits 1 naming the first broken entry", async () => {
    const { file } = await appDatabase("broken.sqlite", 4);
    const db = new Database(file);
    db.prepare("DELETE FROM log_entries WHERE id = 2").run();
    db.close();
    const run = runChecks(["verify", "--db", file]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("entry 3: it does not follow entry 1 (an entry between was removed)");
  });

  it("refuses a missing file rather than creating an empty record that holds", () => {
    const file = join(dir, "nowhere.sqlite");
    const run = runChecks(["verify", "--db", file]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`no database at ${file}`);
    expect(existsSync(file)).toBe(false);
  });

  it("refuses a file that is not the app's database", () => {
    const file = join(dir, "other.sqlite");
    new Database(file).exec("CREATE TABLE t (x)").close();
    const run = runChecks(["verify", "--db", file]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("holds no record of checks");
  });

  it("explains itself with --help, and exits 1 for an unknown command", () => {
    expect(runChecks(["--help"])).toMatchObject({
      status: 0,
      stdout: expect.stringContaining("npm run checks -- verify"),
    });
    expect(runChecks(["check"])).toMatchObject({ status: 1, stderr: expect.stringContaining("unknown command check") });
  });
});
