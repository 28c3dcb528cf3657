import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccounts } from "../web/accounts/accounts.ts";
import { openAppDatabase } from "../web/app-db.ts";
import { createChecksLog } from "../web/checks/checks-log.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
let dir: string;
let appDb: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "users-cli-"));
  appDb = join(dir, "app.sqlite");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `npm run users -- ARGS` as an administrator runs it, on APP_DB. */
function users(args: string[], input?: string) {
  return spawnSync(process.execPath, ["--import", "tsx", "server/cli/users.ts", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    input,
    env: { ...process.env, APP_DB: appDb, APP_URL: "https://lookup.example.com" },
  });
}

/** What the app would say to a sign-in, on the same database. */
async function signIn(email: string, password: string) {
  const db = openAppDatabase(appDb);
  try {
    return (await createAccounts({ db, audit: () => {}, appUrl: "x" }).signInWithPassword(email, password, "127.0.0.1"))
      .outcome;
  } finally {
    db.close();
  }
}

describe("npm run users", () => {
  it("adds a user and prints, alone on the last line, the one-time link that sets their password", () => {
    const run = users(["add", "Maria@Example.com", "--role", "member", "--name", "Maria Lopez"]);
    expect(run.status).toBe(0);
    const last = run.stdout.trim().split("\n").at(-1)!;
    expect(last).toMatch(/^https:\/\/lookup\.example\.com\/set-password\?token=[\w-]{40,}$/);
    expect(run.stdout).toContain("maria@example.com as member");
  });

  it("sets a password from standard input for scripts, refuses a short one, and the app then signs them in", async () => {
    const short = users(["add", "short@example.com", "--role", "auditor", "--password-stdin"], "too short\n");
    expect(short.status).toBe(1);
    expect(short.stderr).toContain("at least 12 characters");

    const run = users(
      ["add", "audrey@example.com", "--role", "auditor", "--password-stdin"],
      "a long enough password\n",
    );
    expect(run.status).toBe(0);
    expect(run.stdout).not.toContain("a long enough password");
    expect(await signIn("audrey@example.com", "a long enough password")).toBe("ok");
    expect(await signIn("audrey@example.com", "a wrong password here")).toBe("refused");
  });

  it("lists, changes a role, refuses what is not a role, and removes", () => {
    expect(users(["set-role", "maria@example.com", "admin"]).stdout).toContain("maria@example.com is now admin");
    const wrong = users(["set-role", "maria@example.com", "owner"]);
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toContain("admin, member, auditor");
    const list = users(["list"]).stdout;
    expect(list).toMatch(/audrey@example\.com\tauditor\t-\tset/);
    expect(list).toMatch(/maria@example\.com\tadmin\tMaria Lopez\t-/);
    expect(users(["remove", "audrey@example.com"]).status).toBe(0);
    expect(users(["list"]).stdout).not.toContain("audrey@");
    const missing = users(["remove", "nobody@example.com"]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("there is no user nobody@example.com");
  });

  it("writes each change into the record of checks, naming who ran it", () => {
    const db = openAppDatabase(appDb);
    try {
      const log = createChecksLog(db, { appVersion: "test" });
      const actions = log.list({}).entries.map((e) => `${e.action}: ${e.detail}`);
      expect(actions).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^user added: maria@example\.com as member; by npm run users \(.+\)$/),
          expect.stringMatching(/^role changed: maria@example\.com: member → admin; by npm run users/),
          expect.stringMatching(/^user removed: audrey@example\.com \(auditor\); by npm run users/),
        ]),
      );
      expect(log.verify().ok).toBe(true);
    } finally {
      db.close();
    }
  });
});
