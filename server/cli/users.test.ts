import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccounts } from "../web/accounts/accounts.ts";
import { freshPostgresUrl } from "../testing/state-backends.ts";
import { openAppState } from "../web/app-db.ts";
import { createChecksLog } from "../web/checks/checks-log.ts";
import { cliCommand } from "../testing/built-cli.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
let dir: string;
let appDb: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "users-cli-"));
  appDb = join(dir, "app.sqlite");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `npm run users -- ARGS` as an administrator runs it, on APP_DB. */
function users(args: string[], input?: string, env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [...cliCommand("users"), ...args], {
    cwd: ROOT,
    encoding: "utf8",
    input,
    env: { ...process.env, APP_DB: appDb, DATABASE_URL: "", APP_URL: "https://lookup.example.com", ...env },
  });
}

/** What the app would say to a sign-in, on the same database. */
async function signIn(email: string, password: string) {
  const state = await openAppState({ file: appDb });
  try {
    const accounts = createAccounts({ state, audit: () => {}, appUrl: "x" });
    return (await accounts.signInWithPassword(email, password, "127.0.0.1")).outcome;
  } finally {
    await state.close();
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
  }, 60_000);

  it("writes each change into the record of checks, naming who ran it", async () => {
    const state = await openAppState({ file: appDb });
    try {
      const log = createChecksLog(state, { appVersion: "test" });
      const actions = (await log.list({})).entries.map((e) => `${e.action}: ${e.detail}`);
      expect(actions).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^user added: maria@example\.com as member; by npm run users \(.+\)$/),
          expect.stringMatching(/^role changed: maria@example\.com: member → admin; by npm run users/),
          expect.stringMatching(/^user removed: audrey@example\.com \(auditor\); by npm run users/),
        ]),
      );
      expect((await log.verify()).ok).toBe(true);
    } finally {
      await state.close();
    }
  });

  it("keeps its users in PostgreSQL when DATABASE_URL names it, where every app node reads them", async () => {
    const url = await freshPostgresUrl("users_cli");
    const env = { DATABASE_URL: url };
    const added = users(
      ["add", "pat@example.com", "--role", "admin", "--password-stdin"],
      "a long enough password\n",
      env,
    );
    expect(added).toMatchObject({ status: 0, stdout: expect.stringContaining("pat@example.com as admin") });
    expect(users(["list"], undefined, env).stdout).toMatch(/pat@example\.com\tadmin\t-\tset/);
    expect(users(["list"]).stdout).not.toContain("pat@");

    const state = await openAppState({ url, file: appDb });
    try {
      const accounts = createAccounts({ state, audit: () => {}, appUrl: "x" });
      expect(
        (await accounts.signInWithPassword("pat@example.com", "a long enough password", "127.0.0.1")).outcome,
      ).toBe("ok");
      const log = createChecksLog(state, { appVersion: "test" });
      expect(await log.verify()).toMatchObject({ ok: true, entries: 2 });
    } finally {
      await state.close();
    }
  });
});
