import { sql } from "kysely";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LogEntrySchema } from "../../../src/contract/checks.ts";
import { migrateStateDb, openStateDb, type Backend, type StateDb } from "../../db/state-db.ts";
import { BACKENDS, freshPostgresUrl } from "../../testing/state-backends.ts";
import { CHECKS_MIGRATIONS, createChecksLog, entryHash, sha256, shownKey, type NewLogEntry } from "./checks-log.ts";

const NOW = new Date("2027-03-03T15:02:00Z");
const maria = { email: "maria@example.com", name: "Maria Lopez", role: "member" };
const provenance = {
  state: "ny",
  license: "1268007",
  as_of: null,
  source: { agency: "New York State Liquor Authority", sha256: "a".repeat(64), as_of: "2016-01-14" },
};

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

describe.each(BACKENDS)("the record of checks on %s", (backend: Backend) => {
  let dir: string;
  // Every connection of a test reaches one database: a SQLite file, or a PostgreSQL database of its own.
  let target: { file: string } | { url: string };
  const handles: StateDb[] = [];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "checks-log-"));
    target = backend === "postgres" ? { url: await freshPostgresUrl("checks_log") } : { file: join(dir, "app.sqlite") };
  });
  afterEach(async () => {
    while (handles.length) await handles.pop()!.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A connection of its own to the test's database, migrated, and its log; `state` is what a tamperer would use. */
  async function open(now = () => NOW, key: string | null = null) {
    const state = openStateDb("url" in target ? { ...target, poolSize: 4 } : target);
    handles.push(state);
    await migrateStateDb(state, "app", CHECKS_MIGRATIONS);
    return { state, log: createChecksLog(state, { appVersion: "1.2.3", now, key }) };
  }
  /** A statement run behind the log's back. */
  const tamper = async (state: StateDb, statement: ReturnType<typeof sql>) => {
    await statement.execute(state.db);
  };

  /** A log of five entries, and the connection a tamperer would use. */
  async function fiveEntries() {
    const { state, log } = await open();
    await log.appendMany(["1", "2", "3", "4", "5"].map((n) => check(n)));
    expect(await log.verify()).toMatchObject({ ok: true, entries: 5 });
    return { state, log };
  }

  describe("writing entries", () => {
    it("numbers entries 1, 2, 3…, chains each to the one before and keeps what the record and its source were", async () => {
      const { log } = await open();
      const first = await log.append(check("1268007"));
      const [second, third] = await log.appendMany([
        check("2"),
        { action: "sign-in", user: maria, detail: "from 10.0.0.1" },
      ]);
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
      expect(await log.get(1)).toEqual(first);
      expect(await log.head()).toEqual({ entries: 3, hash: third!.hash });
    });

    it("keeps one chain when two connections to the same database append in turn", async () => {
      const a = (await open()).log;
      const b = (await open()).log;
      await a.append(check("1"));
      await b.append(check("2"));
      await a.appendMany([check("3"), check("4")]);
      expect(await b.verify()).toMatchObject({ ok: true, entries: 4, head: (await a.head()).hash });
    });

    // On SQLite a process holds one connection (Kysely queues its transactions) and another process waits on
    // the file's write lock; two connections in one process would wait on each other's lock, synchronously.
    it.runIf(backend === "postgres")(
      "keeps one chain when two app nodes append at once, several entries a transaction",
      async () => {
        const nodes = [(await open()).log, (await open()).log];
        // 2 x 40 entries, in appends of 1 to 4 entries, both nodes writing at the same time.
        const sizes = [1, 2, 3, 4, 1, 3, 2, 4, 3, 2, 4, 1, 4, 3, 2, 1];
        await Promise.all(
          nodes.map(async (log, node) => {
            for (const [i, size] of sizes.entries()) {
              await log.appendMany(Array.from({ length: size }, (_, k) => check(`${node}-${i}-${k}`)));
            }
          }),
        );
        const chain = await nodes[0]!.verify();
        expect(chain).toMatchObject({ ok: true, entries: 80, broken_at: null });
        expect((await nodes[1]!.list({ limit: 100 })).entries.map((e) => e.id)).toEqual(
          Array.from({ length: 80 }, (_, i) => 80 - i),
        );
      },
    );
  });

  describe("verifying the chain", () => {
    it("holds on a fresh log and on one written to", async () => {
      const { log } = await open();
      expect(await log.verify()).toEqual({
        ok: true,
        entries: 0,
        head: null,
        broken_at: null,
        problem: null,
        checked_at: NOW.toISOString(),
      });
      const written = await log.appendMany([check("1"), check("2")]);
      expect(await log.verify()).toMatchObject({ ok: true, entries: 2, head: written[1]!.hash, broken_at: null });
    });

    it("names an entry whose content was altered", async () => {
      const { state, log } = await fiveEntries();
      await tamper(state, sql`UPDATE log_entries SET verdict = 'valid' WHERE id = 3`);
      expect(await log.verify()).toMatchObject({
        ok: false,
        broken_at: 3,
        problem: "entry 3: its content does not match its hash (changed after it was written)",
      });
    });

    it("names the entry after one removed from the middle", async () => {
      const { state, log } = await fiveEntries();
      await tamper(state, sql`DELETE FROM log_entries WHERE id = 3`);
      expect(await log.verify()).toMatchObject({
        ok: false,
        entries: 4,
        broken_at: 4,
        problem: "entry 4: it does not follow entry 2 (an entry between was removed)",
      });
    });

    it("names the entry after one altered with its hash recomputed", async () => {
      const { state, log } = await fiveEntries();
      const altered = { ...(await log.get(2))!, verdict: "valid" as const };
      await tamper(state, sql`UPDATE log_entries SET verdict = 'valid', hash = ${entryHash(altered)} WHERE id = 2`);
      expect(await log.verify()).toMatchObject({
        ok: false,
        broken_at: 3,
        problem: "entry 3: it does not follow entry 2 (entries were reordered, or one was replaced)",
      });
    });

    it("names the newest entry when it was removed", async () => {
      const { state, log } = await fiveEntries();
      await tamper(state, sql`DELETE FROM log_entries WHERE id = 5`);
      expect(await log.verify()).toMatchObject({
        ok: false,
        entries: 4,
        broken_at: 5,
        problem: "entry 5: it is missing: the record held 5 entries (the newest entry was removed)",
      });
    });

    it("names the first of two entries swapped", async () => {
      const { state, log } = await fiveEntries();
      await state.db.transaction().execute(async (trx) => {
        await sql`UPDATE log_entries SET id = 100 WHERE id = 2`.execute(trx);
        await sql`UPDATE log_entries SET id = 2 WHERE id = 4`.execute(trx);
        await sql`UPDATE log_entries SET id = 4 WHERE id = 100`.execute(trx);
      });
      expect(await log.verify()).toMatchObject({
        ok: false,
        broken_at: 2,
        problem: "entry 2: it does not follow entry 1 (entries were reordered, or one was replaced)",
      });
    });

    it("stays broken when entries are appended after a removal", async () => {
      const { state, log } = await fiveEntries();
      await tamper(state, sql`DELETE FROM log_entries WHERE id = 5`);
      expect((await log.append(check("6"))).id).toBe(6);
      expect(await log.verify()).toMatchObject({ ok: false, broken_at: 6 });
    });
  });

  describe("the hour rule's look-up", () => {
    it("finds the same person's checks within the hour, each as what it showed, and nothing else", async () => {
      let now = NOW;
      const { log } = await open(() => now);
      const first = await log.append(check("1"));
      const given = JSON.stringify({ line: 3, state: "NY", license: "2", business: "", address: "" });
      const notFound = await log.append(
        check("2", {
          action: "verify",
          verdict: "not found",
          record_json: null,
          provenance_json: null,
          given_json: given,
        }),
      );
      now = new Date(NOW.getTime() + 59 * 60_000);
      const since = new Date(now.getTime() - 3_600_000).toISOString();
      await log.append(check("3", { action: "sign-in" }));
      await log.append(check("1", { user: { ...maria, email: "someone@example.com" } }));
      expect(await log.recentChecks("maria@example.com", since)).toEqual([
        { id: notFound.id, shown: shownKey({ ...notFound, given_json: given }) },
        { id: first.id, shown: shownKey(first) },
      ]);
      expect(shownKey(notFound)).toBe(
        JSON.stringify(["ny", "2", "not found", "Expired on December 31, 2016.", null, given]),
      );
      const later = new Date(NOW.getTime() + 61 * 60_000 - 3_600_000).toISOString();
      expect(await log.recentChecks("maria@example.com", later)).toEqual([]);
    });
  });

  describe("what the clerk gave", () => {
    const given = JSON.stringify({ line: 11, state: "NJ", license: "1", business: "White Horse", address: "" });

    it("is kept with the entry and hashed with it; an entry without it hashes as every entry did before", async () => {
      const { log } = await open();
      const [plain, verify] = await log.appendMany([check("1"), check("1", { action: "verify", given_json: given })]);
      expect(plain!.given_json).toBeNull();
      // The hash every entry had before what the clerk gave was kept: older chains verify unchanged.
      const { hash: _, given_json: __, ...fields } = plain!;
      const before = [
        ...["id", "at", "zone", "action", "user_email", "user_name", "user_role", "state", "license", "verdict"],
        ...["reason", "record_json", "record_sha256", "provenance_json", "source_sha256", "as_of", "detail"],
        "app_version",
      ] as const;
      expect(plain!.hash).toBe(sha256(`${"0".repeat(64)}\n${JSON.stringify(before.map((f) => fields[f]))}`));
      expect(verify!.given_json).toBe(given);
      expect(verify!.hash).toBe(entryHash(verify!));
      expect(verify!.hash).not.toBe(entryHash({ ...verify!, given_json: null }));
      expect(await log.get(2)).toEqual(verify);
      expect(await log.verify()).toMatchObject({ ok: true, entries: 2 });
    });

    it("cannot be changed, dropped or added behind the log", async () => {
      for (const statement of [
        sql`UPDATE log_entries SET given_json = NULL WHERE id = 2`,
        sql`UPDATE log_entries SET given_json = replace(given_json, '11', '12') WHERE id = 2`,
        sql`UPDATE log_entries SET given_json = ${given} WHERE id = 1`,
      ]) {
        const { state, log } = await open();
        await tamper(state, sql`DELETE FROM log_entries`);
        await tamper(state, sql`UPDATE log_head SET entries = 0, hash = ${"0".repeat(64)}`);
        await log.appendMany([check("1"), check("1", { action: "verify", given_json: given })]);
        await tamper(state, statement);
        expect(await log.verify()).toMatchObject({
          ok: false,
          problem: expect.stringContaining("does not match its hash"),
        });
      }
    });

    it("arrives by a migration that leaves the entries written before it, and their chain, as they were", async () => {
      const state = openStateDb("url" in target ? { ...target, poolSize: 4 } : target);
      handles.push(state);
      const [first] = Object.entries(CHECKS_MIGRATIONS);
      await migrateStateDb(state, "app", Object.fromEntries([first!]));
      // Two entries as the app wrote them before: no given_json column at all.
      let prev = "0".repeat(64);
      for (const id of [1, 2]) {
        const entry = {
          id,
          at: NOW.toISOString(),
          zone: null,
          action: "verify" as const,
          user_email: maria.email,
          user_name: maria.name,
          user_role: maria.role,
          state: "ny",
          license: String(id),
          verdict: "valid" as const,
          reason: "In force.",
          record_json: null,
          record_sha256: null,
          provenance_json: null,
          source_sha256: null,
          as_of: null,
          detail: `row ${id} of 2`,
          app_version: "1.0.0",
          prev_hash: prev,
        };
        prev = entryHash(entry);
        await sql`INSERT INTO log_entries (id, at, zone, action, user_email, user_name, user_role, state, license,
          verdict, reason, record_json, record_sha256, provenance_json, source_sha256, as_of, detail, app_version,
          prev_hash, hash) VALUES (${id}, ${entry.at}, NULL, 'verify', ${maria.email}, ${maria.name}, ${maria.role},
          'ny', ${String(id)}, 'valid', 'In force.', NULL, NULL, NULL, NULL, NULL, ${entry.detail}, '1.0.0', ${entry.prev_hash},
          ${prev})`.execute(state.db);
      }
      await sql`UPDATE log_head SET entries = 2, hash = ${prev}`.execute(state.db);

      await migrateStateDb(state, "app", CHECKS_MIGRATIONS);
      const log = createChecksLog(state, { appVersion: "1.2.3", now: () => NOW });
      expect(await log.verify()).toMatchObject({ ok: true, entries: 2 });
      expect(await log.get(1)).toMatchObject({ detail: "row 1 of 2", given_json: null });
      await log.append(check("3", { action: "verify", given_json: given }));
      expect(await log.verify()).toMatchObject({ ok: true, entries: 3 });
    });
  });

  describe("a cut with a rewritten head, and the head's signature", () => {
    const KEY = "a key kept outside the database";
    /** Removes the entries after `keep` and rewrites the head row to name it, as someone with the database could. */
    const cut = async (state: StateDb, keep: number, hash: string) => {
      await tamper(state, sql`DELETE FROM log_entries WHERE id > ${keep}`);
      await tamper(state, sql`UPDATE log_head SET entries = ${keep}, hash = ${hash}`);
    };

    it("holds as a chain without a key: the limit only a digest kept elsewhere (verify --expect) closes", async () => {
      const { state, log } = await fiveEntries();
      await cut(state, 3, (await log.get(3))!.hash);
      expect(await log.verify()).toMatchObject({ ok: true, entries: 3 });
    });

    it("breaks the chain at the head with CHECKS_KEY, and an append after does not sign it again", async () => {
      const { state, log } = await open(() => NOW, KEY);
      await log.appendMany(["1", "2", "3", "4", "5"].map((n) => check(n)));
      expect(await log.verify()).toMatchObject({ ok: true, entries: 5 });
      await cut(state, 3, (await log.get(3))!.hash);
      const problem = expect.stringContaining("the record's head does not carry CHECKS_KEY's signature");
      expect(await log.verify()).toMatchObject({ ok: false, broken_at: 3, problem });
      await log.append(check("6"));
      expect(await log.verify()).toMatchObject({ ok: false, broken_at: 4, problem });
      // Read without the key (or with another), the cut is a chain that holds, or a head someone else signed.
      const { log: keyless } = await open(() => NOW, null);
      expect(await keyless.verify()).toMatchObject({ ok: true, entries: 4 });
      const { log: other } = await open(() => NOW, "another key");
      expect(await other.verify()).toMatchObject({ ok: false, problem });
    });

    it("signs a record kept before the key only by sign(), which walks it first", async () => {
      const { state, log: before } = await open();
      await before.appendMany([check("1"), check("2")]);
      const { log } = await open(() => NOW, KEY);
      expect(await log.verify()).toMatchObject({
        ok: false,
        broken_at: 2,
        problem: expect.stringContaining("the record's head is not signed with CHECKS_KEY"),
      });
      await log.append(check("3"));
      expect(await log.verify()).toMatchObject({ ok: false, broken_at: 3 });
      expect(await log.sign()).toMatchObject({ ok: true, entries: 3 });
      await log.append(check("4"));
      expect(await log.verify()).toMatchObject({ ok: true, entries: 4 });

      await tamper(state, sql`UPDATE log_entries SET license = '9' WHERE id = 2`);
      expect(await log.sign()).toMatchObject({ ok: false, broken_at: 2 });
      expect(await before.sign()).toBeNull();
    });
  });

  describe("the Checks page's state, from the last verified entry", () => {
    it("walks only newer entries between whole walks, and sees a cut below its checkpoint", async () => {
      let now = NOW;
      const { state, log } = await open(() => now);
      await log.appendMany(["1", "2", "3", "4", "5"].map((n) => check(n)));
      expect(await log.state()).toMatchObject({ ok: true, entries: 5 });
      await log.append(check("6"));
      expect(await log.state()).toMatchObject({ ok: true, entries: 6 });

      // An older entry altered is not walked again until the next whole walk, a day on (or npm run checks -- verify).
      await tamper(state, sql`UPDATE log_entries SET license = '9' WHERE id = 2`);
      expect(await log.state()).toMatchObject({ ok: true, entries: 6 });
      expect(await log.verify()).toMatchObject({ ok: false, broken_at: 2 });
      now = new Date(NOW.getTime() + 25 * 3_600_000);
      expect(await log.state()).toMatchObject({ ok: false, broken_at: 2 });
    });

    it("sees the newest entries cut and the head rewritten, without a key", async () => {
      const { state, log } = await fiveEntries();
      expect(await log.state()).toMatchObject({ ok: true, entries: 5 });
      await tamper(state, sql`DELETE FROM log_entries WHERE id > 3`);
      await tamper(state, sql`UPDATE log_head SET entries = 3, hash = ${(await log.get(3))!.hash}`);
      expect(await log.state()).toMatchObject({
        ok: false,
        broken_at: 5,
        problem: "entry 5: it is not the entry verified before (it was removed)",
      });
    });
  });

  describe("listing", () => {
    it("gives every matching entry a page at a time, as the list has them", async () => {
      const { log } = await open();
      await log.appendMany(Array.from({ length: 2_345 }, (_, i) => check(String(i % 7))));
      const paged: number[] = [];
      for await (const page of log.pages({ state: "ny" }, 1_000)) {
        expect(page.length).toBeLessThanOrEqual(1_000);
        paged.push(...page.map((e) => e.id));
      }
      const listed = await log.list({ state: "ny", limit: 5_000 });
      expect(paged).toEqual(listed.entries.map((e) => e.id));
      expect(paged).toHaveLength(2_345);
      const license3: number[] = [];
      for await (const page of log.pages({ license: "3" }, 100)) license3.push(...page.map((e) => e.id));
      expect(license3).toEqual((await log.list({ license: "3", limit: 5_000 })).entries.map((e) => e.id));
    });

    it("filters, pages newest first and counts every match", async () => {
      let now = NOW;
      const { log } = await open(() => now);
      const ana = { email: "ana@example.com", name: null, role: "auditor" };
      await log.appendMany([check("1"), check("2", { user: ana, verdict: "valid" }), check("1", { action: "verify" })]);
      now = new Date("2027-03-04T09:00:00Z");
      await log.appendMany([check("3"), { action: "sign-in", user: ana }]);

      const ids = (page: { entries: { id: number }[] }) => page.entries.map((e) => e.id);
      expect(ids(await log.list())).toEqual([5, 4, 3, 2, 1]);
      expect(ids(await log.list({ user: "ana@example.com" }))).toEqual([5, 2]);
      expect(ids(await log.list({ state: "ny", license: "1" }))).toEqual([3, 1]);
      expect(ids(await log.list({ verdict: "valid" }))).toEqual([2]);
      expect(ids(await log.list({ action: "verify" }))).toEqual([3]);
      expect(ids(await log.list({ from: "2027-03-04T00:00:00.000Z" }))).toEqual([5, 4]);
      expect(ids(await log.list({ to: "2027-03-04T00:00:00.000Z" }))).toEqual([3, 2, 1]);

      const first = await log.list({ user: "maria@example.com", limit: 2 });
      expect(first).toMatchObject({ next_before: 3, total: 3 });
      expect(ids(first)).toEqual([4, 3]);
      const second = await log.list({ user: "maria@example.com", limit: 2, before: first.next_before! });
      expect(second).toMatchObject({ next_before: null, total: 3 });
      expect(ids(second)).toEqual([1]);
    });
  });
});
