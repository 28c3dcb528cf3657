import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { createAccounts } from "./accounts/accounts.ts";
import { createChecksLog } from "./checks/checks-log.ts";
import { licenseRecord } from "../testing/fake-license-service.ts";
import { openAppState } from "./app-db.ts";
import { openWatchStore, WATCH_MIGRATIONS } from "./watchlist/watch-store.ts";
import { migrateStateDb, openStateDb } from "../db/state-db.ts";

const dir = mkdtempSync(join(tmpdir(), "app-db-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the app's database", () => {
  it("takes over a watchlist file of its own from before, once, losing nothing and leaving the old file as it was", async () => {
    const old = join(dir, "watchlist.sqlite");
    // The watchlist's file as it was: its first tables, before the app's database held it.
    const oldState = openStateDb({ file: old });
    await migrateStateDb(oldState, "old", { "2026-11-26-watchlist": WATCH_MIGRATIONS["2026-11-26-watchlist"]! });
    const before = openWatchStore(oldState);
    await before.add(
      ["0012345", "0099999"].map((license) => ({
        state: "ny",
        license,
        outcome: "found" as const,
        record: licenseRecord("ny", license),
        provenance: null,
      })),
      "2026-11-01T10:00:00.000Z",
    );
    const check = await before.beginCheck("schedule", "2026-11-02T10:00:00.000Z");
    await before.recordAnswers(
      check.id,
      "2026-11-02T10:00:01.000Z",
      [{ state: "ny", license: "0012345", outcome: "found", record: licenseRecord("ny", "0012345"), provenance: null }],
      [{ state: "ny", license: "0012345", field: "status", from: "Active", to: "Expired" }],
      null,
    );
    await oldState.close();
    const size = statSync(old).size;

    const file = join(dir, "app.sqlite");
    const lines: string[] = [];
    await (await openAppState({ file, watchDb: old, log: (line) => lines.push(line) })).close();
    await (await openAppState({ file, watchDb: old, log: (line) => lines.push(line) })).close();
    expect(lines).toEqual([`Took over the watchlist of ${old} (2 licenses); that file is no longer read.`]);

    const state = await openAppState({ file });
    const after = openWatchStore(state);
    expect((await after.entries()).map((e) => [e.license, e.record?.business])).toEqual([
      ["0012345", "BUSINESS 0012345"],
      ["0099999", "BUSINESS 0099999"],
    ]);
    expect(await after.unseenChanges()).toMatchObject([{ license: "0012345", field: "status", to: "Expired" }]);
    expect(await after.lastCheck()).toMatchObject({ id: check.id, trigger: "schedule" });
    // The check it left open is the one a start resumes.
    expect(await after.beginCheck("start-up", "2026-11-03T10:00:00.000Z")).toMatchObject({ id: check.id });
    await state.close();
    expect(statSync(old).size).toBe(size);
  });

  it("adopts a database made before its migrations as it is: its users, sessions and chain go on", async () => {
    const file = join(dir, "before-migrations.sqlite");
    const before = new Database(file);
    // What the app created before its migrations, word for word.
    before.exec(`CREATE TABLE IF NOT EXISTS users (
  id INTEGER PRIMARY KEY,
  email TEXT NOT NULL UNIQUE COLLATE NOCASE,
  name TEXT,
  role TEXT NOT NULL,
  password_hash TEXT,
  created_at TEXT NOT NULL,
  last_sign_in_at TEXT
);
CREATE TABLE IF NOT EXISTS password_links (
  token_hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sessions (
  id_hash TEXT PRIMARY KEY,
  user_id INTEGER REFERENCES users (id) ON DELETE CASCADE,
  data TEXT NOT NULL,
  created_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS sessions_of_user ON sessions (user_id);
CREATE TABLE IF NOT EXISTS app_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;`);
    before.exec(`CREATE TABLE IF NOT EXISTS log_entries (
  id INTEGER PRIMARY KEY,
  at TEXT NOT NULL,
  zone TEXT,
  action TEXT NOT NULL,
  user_email TEXT,
  user_name TEXT,
  user_role TEXT,
  state TEXT,
  license TEXT,
  verdict TEXT,
  reason TEXT,
  record_json TEXT,
  record_sha256 TEXT,
  provenance_json TEXT,
  source_sha256 TEXT,
  as_of TEXT,
  detail TEXT,
  app_version TEXT NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS log_by_user ON log_entries (user_email, id);
CREATE INDEX IF NOT EXISTS log_by_license ON log_entries (state, license, id);
CREATE INDEX IF NOT EXISTS log_by_at ON log_entries (at);
CREATE TABLE IF NOT EXISTS log_head (
  one INTEGER PRIMARY KEY CHECK (one = 1),
  entries INTEGER NOT NULL,
  hash TEXT NOT NULL
);
INSERT OR IGNORE INTO log_head (one, entries, hash) VALUES (1, 0, '0000000000000000000000000000000000000000000000000000000000000000');`);
    const at = "2026-11-01T10:00:00.000Z";
    before
      .prepare("INSERT INTO users (email, name, role, created_at) VALUES ('ada@example.com', 'Ada', 'admin', ?)")
      .run(at);
    before.prepare("INSERT INTO app_meta (name, value) VALUES ('session_secret', ?)").run("s".repeat(43));
    before.close();

    const state = await openAppState({ file });
    try {
      const log = createChecksLog(state, { appVersion: "test" });
      await log.append({ action: "sign-in", user: { email: "ada@example.com", name: "Ada", role: "admin" } });
      const accounts = createAccounts({ state, audit: (entry) => log.append(entry), appUrl: "http://app.test" });
      expect(await accounts.store.userByEmail("ADA@example.com")).toMatchObject({ id: 1, role: "admin" });
      expect(await accounts.store.keptMeta("session_secret", "another")).toBe("s".repeat(43));
      await accounts.addUser("bo@example.com", "member", null, null);
      expect((await accounts.store.list(at)).map((u) => u.email)).toEqual(["ada@example.com", "bo@example.com"]);
      expect(await log.verify()).toMatchObject({ ok: true, entries: 2 });
    } finally {
      await state.close();
    }
  });
});
