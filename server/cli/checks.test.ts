import Database from "better-sqlite3";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChecksLog } from "../web/checks/checks-log.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "checks-cli-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `npm run checks -- ARGS` as a person would. */
function runChecks(args: string[], env: Record<string, string> = {}) {
  const { status, stdout, stderr } = spawnSync(process.execPath, ["--import", "tsx", "server/cli/checks.ts", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, APP_DB: "", ...env },
  });
  return { status, stdout, stderr };
}

/** An app database holding a record of `count` checks. */
function appDatabase(name: string, count: number) {
  const file = join(dir, name);
  const db = new Database(file);
  const log = createChecksLog(db, { appVersion: "test" });
  for (let i = 1; i <= count; i++) log.append({ action: "verify", user: null, state: "ny", license: String(i) });
  const head = log.head().hash;
  db.close();
  return { file, head };
}

describe("npm run checks -- verify", () => {
  it("exits 0 and gives the newest hash when the chain holds, the database named by APP_DB", () => {
    const { file, head } = appDatabase("holds.sqlite", 3);
    const run = runChecks(["verify"], { APP_DB: file });
    expect(run).toMatchObject({ status: 0, stderr: "" });
    expect(run.stdout.trim()).toBe(`The record of checks holds: 3 entries; newest hash ${head}`);
  });

  it("exits 1 naming the first broken entry", () => {
    const { file } = appDatabase("broken.sqlite", 4);
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
