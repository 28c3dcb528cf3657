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

/** An app database holding a record of `count` checks: a SQLite file, or PostgreSQL at `url`; signed under `key`. */
async function appDatabase(name: string, count: number, url: string | null = null, key: string | null = null) {
  const file = join(dir, name);
  const state = await openAppState({ url, file });
  const log = createChecksLog(state, { appVersion: "test", key });
  const hashes: string[] = [];
  for (let i = 1; i <= count; i++) {
    hashes.push((await log.append({ action: "verify", user: null, state: "ny", license: String(i) })).hash);
  }
  const head = (await log.head()).hash;
  await state.close();
  return { file, head, hashes };
}

/** Runs SQL on the database behind the app's back, as someone with write access would. */
async function tamper(where: { file: string; url: string | null }, statements: string[]) {
  if (where.url) {
    const client = new pg.Client({ connectionString: where.url });
    await client.connect();
    for (const statement of statements) await client.query(statement);
    await client.end();
  } else {
    const db = new Database(where.file);
    for (const statement of statements) db.exec(statement);
    db.close();
  }
}

/** Cuts the record's newest entries off after `keep`, and rewrites the head row to name entry `keep`. */
const cutAfter = (keep: number, hash: string) => [
  `DELETE FROM log_entries WHERE id > ${keep}`,
  `UPDATE log_head SET entries = ${keep}, hash = '${hash}'`,
];
const KEY = "a key kept outside the database";

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

  describe.each(["sqlite", "postgres"])("against a cut with a rewritten head, on %s", (backend) => {
    async function database(name: string, key: string | null = null) {
      const url = backend === "postgres" ? await freshPostgresUrl(`checks_cut_${name}`) : null;
      const made = await appDatabase(`${name}.sqlite`, 6, url, key);
      // The database the command reads: DATABASE_URL, else APP_DB.
      const env: Record<string, string> = url ? { DATABASE_URL: url } : { APP_DB: made.file };
      return { ...made, url, env };
    }

    it("passes plain verify without CHECKS_KEY (the limit), and fails verify --expect with the digest's head", async () => {
      const db = await database("plain");
      await tamper(db, cutAfter(4, db.hashes[3]!));

      const plain = runChecks(["verify"], db.env);
      expect(plain).toMatchObject({ status: 0, stderr: "" });
      expect(plain.stdout.trim()).toBe(`The record of checks holds: 4 entries; newest hash ${db.hashes[3]}`);

      const expected = runChecks(["verify", "--expect", `6:${db.head}`], db.env);
      expect(expected.status).toBe(1);
      expect(expected.stderr.trim()).toBe(
        "The record of checks no longer holds entry 6, which the digest carried: its head names 4 entries " +
          "(the newest entries were removed, and the head rewritten).",
      );
      // An older digest's head is still held.
      const older = runChecks(["verify", "--expect", `3:${db.hashes[2]}`], db.env);
      expect(older).toMatchObject({ status: 0, stderr: "" });
      expect(older.stdout).toContain("it still holds entry 3 as the digest carried it");
      // A digest's entry whose hash differs: rewritten.
      const other = runChecks(["verify", "--expect", `3:${db.hashes[1]}`], db.env);
      expect(other.status).toBe(1);
      expect(other.stderr).toContain("entry 3 is not the one the digest carried");
    });

    it("fails plain verify with CHECKS_KEY: the head's signature no longer matches", async () => {
      const db = await database("signed", KEY);
      expect(runChecks(["verify"], { ...db.env, CHECKS_KEY: KEY })).toMatchObject({ status: 0, stderr: "" });
      await tamper(db, cutAfter(4, db.hashes[3]!));

      const run = runChecks(["verify"], { ...db.env, CHECKS_KEY: KEY });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(
        "The record of checks is broken at entry 4: the record's head does not carry CHECKS_KEY's signature " +
          "(the record was rewritten without the key, or the key is not the one that signed it).",
      );
      // The key is what tells: read without it, the cut holds.
      expect(runChecks(["verify"], db.env)).toMatchObject({ status: 0 });
    });
  });

  it("starts signing a record kept before CHECKS_KEY with sign, after checking it against a digest", async () => {
    const { file, head, hashes } = await appDatabase("unsigned.sqlite", 3);
    const env = { APP_DB: file, CHECKS_KEY: KEY };
    const unsigned = runChecks(["verify"], env);
    expect(unsigned.status).toBe(1);
    expect(unsigned.stderr).toContain("entry 3: the record's head is not signed with CHECKS_KEY");

    const wrong = runChecks(["sign", "--expect", `3:${hashes[0]}`], env);
    expect(wrong.status).toBe(1);
    expect(runChecks(["verify"], env).status).toBe(1);

    const signed = runChecks(["sign", "--expect", `3:${head}`], env);
    expect(signed).toMatchObject({ status: 0, stderr: "" });
    expect(signed.stdout.trim()).toBe(
      `The record of checks holds: 3 entries; newest hash ${head}; it still holds entry 3 as the digest carried it. ` +
        "Its head is now signed with CHECKS_KEY.",
    );
    expect(runChecks(["verify"], env)).toMatchObject({ status: 0, stderr: "" });
    expect(runChecks(["sign"], { APP_DB: file })).toMatchObject({
      status: 1,
      stderr: expect.stringContaining("sign needs CHECKS_KEY"),
    });
  });

  it("refuses an --expect that is not COUNT:HASH", async () => {
    const { file } = await appDatabase("expect.sqlite", 1);
    const run = runChecks(["verify", "--expect", "12"], { APP_DB: file });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("--expect 12 is not COUNT:HASH");
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
