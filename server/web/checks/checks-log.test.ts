import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LogEntrySchema } from "../../../src/contract/checks.ts";
import { createChecksLog, entryHash, sha256, type NewLogEntry } from "./checks-log.ts";

const NOW = new Date("2027-03-03T15:02:00Z");
const maria = { email: "maria@example.com", name: "Maria Lopez", role: "member" };
const provenance = {
  state: "ny",
  license: "1268007",
  as_of: null,
  source: { agency: "New York State Liquor Authority", sha256: "a".repeat(64), as_of: "2016-01-14" },
};
let dir: string;
let file: string;
const handles: Database.Database[] = [];

function open(now = () => NOW) {
  const db = new Database(file);
  handles.push(db);
  return { db, log: createChecksLog(db, { appVersion: "1.2.3", now }) };
}

const check = (license: string, fields: Partial<NewLogEntry> = {}): NewLogEntry => ({
  action: "license page",
  zone: "America/New_York",
  user: maria,
  state: "ny",
  license,
  verdict: "expired",
  reason: "Expired on December 31, 2016.",
  record_json: JSON.stringify({ license }),
  provenance_json: JSON.stringify(provenance),
  ...fields,
});

/** A log of five entries, and the handle a tamperer would use. */
function fiveEntries() {
  const { db, log } = open();
  log.appendMany(["1", "2", "3", "4", "5"].map((n) => check(n)));
  expect(log.verify()).toMatchObject({ ok: true, entries: 5 });
  return { db, log };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "checks-log-"));
  file = join(dir, "app.sqlite");
});
afterEach(() => {
  while (handles.length) handles.pop()!.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("writing entries", () => {
  it("numbers entries 1, 2, 3…, chains each to the one before and keeps what the record and its source were", () => {
    const { log } = open();
    const first = log.append(check("1268007"));
    const [second, third] = log.appendMany([check("2"), { action: "sign-in", user: maria, detail: "from 10.0.0.1" }]);
    expect([first.id, second!.id, third!.id]).toEqual([1, 2, 3]);
    expect(first.prev_hash).toBe("0".repeat(64));
    expect(second!.prev_hash).toBe(first.hash);
    expect(third!.prev_hash).toBe(second!.hash);
    expect(first).toMatchObject({
      at: "2027-03-03T15:02:00.000Z",
      user_email: "maria@example.com",
      user_name: "Maria Lopez",
      user_role: "member",
      record_sha256: sha256(JSON.stringify({ license: "1268007" })),
      source_sha256: "a".repeat(64),
      as_of: "2016-01-14",
      app_version: "1.2.3",
    });
    expect(third).toMatchObject({ state: null, verdict: null, record_sha256: null, source_sha256: null });
    for (const entry of [first, second, third]) expect(LogEntrySchema.parse(entry)).toEqual(entry);
    expect(log.get(1)).toEqual(first);
    expect(log.head()).toEqual({ entries: 3, hash: third!.hash });
  });

  it("keeps one chain when two connections to the same file append in turn", () => {
    const a = open().log;
    const b = open().log;
    a.append(check("1"));
    b.append(check("2"));
    a.appendMany([check("3"), check("4")]);
    expect(b.verify()).toMatchObject({ ok: true, entries: 4, head: a.head().hash });
  });
});

describe("verifying the chain", () => {
  it("holds on a fresh log and on one written to", () => {
    const { log } = open();
    expect(log.verify()).toEqual({
      ok: true,
      entries: 0,
      head: null,
      broken_at: null,
      problem: null,
      checked_at: NOW.toISOString(),
    });
    const written = log.appendMany([check("1"), check("2")]);
    expect(log.verify()).toMatchObject({ ok: true, entries: 2, head: written[1]!.hash, broken_at: null });
  });

  it("names an entry whose content was altered", () => {
    const { db, log } = fiveEntries();
    db.prepare("UPDATE log_entries SET verdict = 'valid' WHERE id = 3").run();
    expect(log.verify()).toMatchObject({
      ok: false,
      broken_at: 3,
      problem: "entry 3: its content does not match its hash (changed after it was written)",
    });
  });

  it("names the entry after one removed from the middle", () => {
    const { db, log } = fiveEntries();
    db.prepare("DELETE FROM log_entries WHERE id = 3").run();
    expect(log.verify()).toMatchObject({
      ok: false,
      entries: 4,
      broken_at: 4,
      problem: "entry 4: it does not follow entry 2 (an entry between was removed)",
    });
  });

  it("names the entry after one altered with its hash recomputed", () => {
    const { db, log } = fiveEntries();
    const altered = { ...log.get(2)!, verdict: "valid" as const };
    db.prepare("UPDATE log_entries SET verdict = 'valid', hash = ? WHERE id = 2").run(entryHash(altered));
    expect(log.verify()).toMatchObject({
      ok: false,
      broken_at: 3,
      problem: "entry 3: it does not follow entry 2 (entries were reordered, or one was replaced)",
    });
  });

  it("names the newest entry when it was removed", () => {
    const { db, log } = fiveEntries();
    db.prepare("DELETE FROM log_entries WHERE id = 5").run();
    expect(log.verify()).toMatchObject({
      ok: false,
      entries: 4,
      broken_at: 5,
      problem: "entry 5: it is missing: the record held 5 entries (the newest entry was removed)",
    });
  });

  it("names the first of two entries swapped", () => {
    const { db, log } = fiveEntries();
    db.transaction(() => {
      db.prepare("UPDATE log_entries SET id = 100 WHERE id = 2").run();
      db.prepare("UPDATE log_entries SET id = 2 WHERE id = 4").run();
      db.prepare("UPDATE log_entries SET id = 4 WHERE id = 100").run();
    })();
    expect(log.verify()).toMatchObject({
      ok: false,
      broken_at: 2,
      problem: "entry 2: it does not follow entry 1 (entries were reordered, or one was replaced)",
    });
  });

  it("stays broken when entries are appended after a removal", () => {
    const { db, log } = fiveEntries();
    db.prepare("DELETE FROM log_entries WHERE id = 5").run();
    expect(log.append(check("6")).id).toBe(6);
    expect(log.verify()).toMatchObject({ ok: false, broken_at: 6 });
  });
});

describe("the hour rule's look-up", () => {
  it("finds the same person's check of the same record within the hour, and nothing else", () => {
    let now = NOW;
    const { log } = open(() => now);
    const first = log.append(check("1"));
    const notFound = log.append(check("2", { verdict: "not found", record_json: null, provenance_json: null }));
    now = new Date(NOW.getTime() + 59 * 60_000);
    const since = new Date(now.getTime() - 3_600_000).toISOString();
    const record = first.record_sha256!;
    expect(log.recentCheck("maria@example.com", "ny", "1", record, since)?.id).toBe(1);
    expect(log.recentCheck("maria@example.com", "ny", "2", "not found", since)?.id).toBe(notFound.id);
    expect(log.recentCheck("maria@example.com", "ny", "1", sha256("changed"), since)).toBeNull();
    expect(log.recentCheck("someone@example.com", "ny", "1", record, since)).toBeNull();
    const later = new Date(NOW.getTime() + 61 * 60_000 - 3_600_000).toISOString();
    expect(log.recentCheck("maria@example.com", "ny", "1", record, later)).toBeNull();
  });
});

describe("listing", () => {
  it("filters, pages newest first and counts every match", () => {
    let now = NOW;
    const { log } = open(() => now);
    const ana = { email: "ana@example.com", name: null, role: "auditor" };
    log.appendMany([check("1"), check("2", { user: ana, verdict: "valid" }), check("1", { action: "verify" })]);
    now = new Date("2027-03-04T09:00:00Z");
    log.appendMany([check("3"), { action: "sign-in", user: ana }]);

    const ids = (page: { entries: { id: number }[] }) => page.entries.map((e) => e.id);
    expect(ids(log.list())).toEqual([5, 4, 3, 2, 1]);
    expect(ids(log.list({ user: "ana@example.com" }))).toEqual([5, 2]);
    expect(ids(log.list({ state: "ny", license: "1" }))).toEqual([3, 1]);
    expect(ids(log.list({ verdict: "valid" }))).toEqual([2]);
    expect(ids(log.list({ action: "verify" }))).toEqual([3]);
    expect(ids(log.list({ from: "2027-03-04T00:00:00.000Z" }))).toEqual([5, 4]);
    expect(ids(log.list({ to: "2027-03-04T00:00:00.000Z" }))).toEqual([3, 2, 1]);

    const first = log.list({ user: "maria@example.com", limit: 2 });
    expect(first).toMatchObject({ next_before: 3, total: 3 });
    expect(ids(first)).toEqual([4, 3]);
    const second = log.list({ user: "maria@example.com", limit: 2, before: first.next_before! });
    expect(second).toMatchObject({ next_before: null, total: 3 });
    expect(ids(second)).toEqual([1]);
  });
});
