import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { migrateStateDb, openStateDb, type Backend, type StateDb } from "../../db/state-db.ts";
import { BACKENDS, freshPostgresUrl } from "../../testing/state-backends.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSignInThrottle, FAILURES_BEFORE_LOCK, LOCK_MS } from "./sign-in-throttle.ts";
import { ACCOUNTS_MIGRATIONS, LINK_HOURS, openUsersStore } from "./users-store.ts";

const T0 = Date.parse("2027-03-03T15:00:00Z");

describe.each(BACKENDS)("the accounts' store on %s", (backend: Backend) => {
  let dir: string;
  let target: { file: string } | { url: string };
  const handles: StateDb[] = [];
  let clock: number;
  const now = () => new Date(clock);

  beforeEach(async () => {
    clock = T0;
    dir = mkdtempSync(join(tmpdir(), "users-store-"));
    target =
      backend === "postgres" ? { url: await freshPostgresUrl("users_store") } : { file: join(dir, "app.sqlite") };
  });
  afterEach(async () => {
    while (handles.length) await handles.pop()!.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A store on its own connection to the test's database: two of them are two app nodes. */
  async function open() {
    const state = openStateDb("url" in target ? { ...target, poolSize: 4 } : target);
    handles.push(state);
    await migrateStateDb(state, "app", ACCOUNTS_MIGRATIONS);
    return openUsersStore(state, now);
  }

  it("adds accounts by their email in lower case, lists them in order, and counts them", async () => {
    const store = await open();
    expect(await store.count()).toBe(0);
    const bo = await store.add(" Bo@Example.com", "member", null);
    const ada = await store.add("ada@example.com", "admin", "Ada");
    expect(bo).toEqual({ id: expect.any(Number), email: "bo@example.com", name: null, role: "member" });
    expect(await store.userByEmail("BO@example.com ")).toEqual(bo);
    expect(await store.user(ada.id)).toEqual(ada);
    expect(await store.user(9999)).toBeNull();
    await expect(store.add("bo@example.com", "admin", null)).rejects.toThrow();
    expect(await store.count()).toBe(2);
    expect(await store.admins()).toBe(1);
    expect((await store.list(new Date(0).toISOString())).map((u) => u.email)).toEqual([
      "ada@example.com",
      "bo@example.com",
    ]);
  });

  it("shows one account as the list does, with its password set or not and its sessions in use", async () => {
    const store = await open();
    const ada = await store.add("ada@example.com", "admin", "Ada");
    await store.setPassword(ada.id, "scrypt$hash");
    await store.session.put("s1", ada.id, "{}");
    clock += 3_600_000;
    await store.session.put("s2", ada.id, "{}");
    const since = new Date(T0 + 60_000).toISOString();
    const listed = await store.listed(ada.id, since);
    expect(listed).toEqual({
      ...ada,
      created_at: new Date(T0).toISOString(),
      last_sign_in_at: null,
      has_password: true,
      active_sessions: 1,
    });
    expect((await store.list(since))[0]).toEqual(listed);
    expect(await store.listed(9999, since)).toBeNull();
  });

  it("sets a password through a one-time link once, and not after it expired or a newer one was made", async () => {
    const store = await open();
    const bo = await store.add("bo@example.com", "member", null);
    const first = await store.newLink(bo.id);
    const second = await store.newLink(bo.id);
    expect(await store.usePasswordLink(first, "hash-1")).toBeNull();
    expect(await store.usePasswordLink(second, "hash-2")).toEqual(bo);
    expect(await store.passwordHash(bo.id)).toBe("hash-2");
    expect(await store.usePasswordLink(second, "hash-3")).toBeNull();

    const late = await store.newLink(bo.id);
    clock += LINK_HOURS * 3_600_000;
    expect(await store.usePasswordLink(late, "hash-4")).toBeNull();
    expect(await store.passwordHash(bo.id)).toBe("hash-2");
  });

  it("lets one of two uses of a link at the same moment set the password, not both", async () => {
    // On SQLite one process holds one connection (two would wait on each other's lock); other processes queue on the file.
    const a = await open();
    const b = backend === "postgres" ? await open() : a;
    const bo = await a.add("bo@example.com", "member", null);
    const token = await a.newLink(bo.id);
    const used = await Promise.all([a.usePasswordLink(token, "from-a"), b.usePasswordLink(token, "from-b")]);
    expect(used.filter((user) => user !== null)).toHaveLength(1);
  });

  it("keeps sessions until they are idle, ends a user's sessions, and removes them with the user", async () => {
    const store = await open();
    const bo = await store.add("bo@example.com", "member", null);
    await store.session.put("s1", bo.id, '{"userId":1}');
    await store.session.put("anonymous", null, "{}");
    expect(await store.session.get("s1", new Date(T0 - 1).toISOString())).toEqual({
      data: '{"userId":1}',
      lastSeenAt: new Date(T0).toISOString(),
    });
    clock += 60_000;
    await store.session.seen("s1");
    expect(await store.session.get("s1", new Date(T0).toISOString())).toMatchObject({
      lastSeenAt: new Date(T0 + 60_000).toISOString(),
    });
    // Idle since its last use: read as none, and gone.
    expect(await store.session.get("anonymous", new Date(T0).toISOString())).toBeNull();
    expect(await store.session.get("anonymous", new Date(0).toISOString())).toBeNull();

    await store.session.put("s2", bo.id, "{}");
    expect(await store.session.dropAllOf(bo.id)).toBe(2);
    await store.session.put("s3", bo.id, "{}");
    expect(await store.remove(bo.id)).toBe(true);
    expect(await store.session.get("s3", new Date(0).toISOString())).toBeNull();
    expect(await store.remove(bo.id)).toBe(false);
  });

  it("keeps the first value of two nodes starting at once: both sign cookies with the same secret", async () => {
    const [a, b] = [await open(), await open()];
    const [fromA, fromB] = await Promise.all([a.keptMeta("session_secret", "a"), b.keptMeta("session_secret", "b")]);
    expect(fromA).toBe(fromB);
    expect(await a.meta("session_secret")).toBe(fromA);
    await a.setMeta("session_secret", "c");
    expect(await b.keptMeta("session_secret", "d")).toBe("c");
  });

  it("counts failed sign-ins for every node: ten on two nodes lock the account on both for a quarter hour", async () => {
    const [a, b] = [await open(), await open()];
    const throttles = [a, b].map((store) => createSignInThrottle({ failures: store.signInFailures, now: () => clock }));
    const keys = ["account:bo@example.com", "address:192.0.2.7"];
    // A guesser going round the nodes: five failures on each.
    for (let i = 0; i < FAILURES_BEFORE_LOCK; i++) {
      expect(await throttles[i % 2]!.waitSeconds(keys)).toBe(0);
      await throttles[i % 2]!.failed(keys);
      clock += 1000;
    }
    expect(await throttles[0]!.waitSeconds(keys)).toBe(LOCK_MS / 1000 - 1);
    expect(await throttles[1]!.waitSeconds(["address:192.0.2.7"])).toBe(LOCK_MS / 1000 - 1);
    // Another address for the same account is locked too; another account from another address is not.
    expect(await throttles[1]!.waitSeconds(["account:bo@example.com", "address:198.51.100.1"])).toBeGreaterThan(0);
    expect(await throttles[1]!.waitSeconds(["account:al@example.com", "address:198.51.100.1"])).toBe(0);
    clock += LOCK_MS;
    expect(await throttles[1]!.waitSeconds(keys)).toBe(0);
    // Two nodes counting one failure at the same moment count two.
    await Promise.all(throttles.map((t) => t.failed(["account:al@example.com"])));
    for (let i = 2; i < FAILURES_BEFORE_LOCK; i++) await throttles[0]!.failed(["account:al@example.com"]);
    expect(await throttles[1]!.waitSeconds(["account:al@example.com"])).toBe(LOCK_MS / 1000);
    // A success on one node clears the account everywhere.
    await throttles[0]!.succeeded(["account:al@example.com"]);
    expect(await throttles[1]!.waitSeconds(["account:al@example.com"])).toBe(0);
  });
});
