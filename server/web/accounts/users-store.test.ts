import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { migrateStateDb, openStateDb, type Backend, type StateDb } from "../../db/state-db.ts";
import { BACKENDS, freshPostgresUrl } from "../../testing/state-backends.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addressKey, createSignInThrottle, FAILURES_BEFORE_LOCK, LOCK_MS } from "./sign-in-throttle.ts";
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

  it("finds a link by its token alone, and ends the user's sessions when a password is set, by link or not", async () => {
    const store = await open();
    const bo = await store.add("bo@example.com", "member", null);
    const al = await store.add("al@example.com", "member", null);
    const token = await store.newLink(bo.id);
    expect(await store.passwordLink(token)).toEqual({
      userId: bo.id,
      expiresAt: new Date(T0 + LINK_HOURS * 3_600_000).toISOString(),
    });
    expect(await store.passwordLink("made-up")).toBeNull();
    const ever = new Date(0).toISOString();
    await store.session.put("bo's", bo.id, "{}");
    await store.session.put("al's", al.id, "{}");
    expect(await store.usePasswordLink(token, "hash")).toEqual(bo);
    expect(await store.session.get("bo's", ever)).toBeNull();
    expect(await store.session.get("al's", ever)).not.toBeNull();
    await store.setPassword(al.id, "hash");
    expect(await store.session.get("al's", ever)).toBeNull();
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

  it("counts tries for every node: ten on two nodes lock the account and the address on both for a quarter hour", async () => {
    const [a, b] = [await open(), await open()];
    const throttles = [a, b].map((store) => createSignInThrottle({ tries: store.signInTries, now: () => clock }));
    const keys = { account: "bo@example.com", address: "192.0.2.7" };
    // A guesser going round the nodes: five tries on each, the tenth locking both keys.
    for (let i = 0; i < FAILURES_BEFORE_LOCK; i++) {
      const taken = await throttles[i % 2]!.take(keys);
      expect(taken).toEqual({
        outcome: "taken",
        locking: i === FAILURES_BEFORE_LOCK - 1 ? ["account", "address"] : [],
      });
      clock += 1000;
    }
    expect(await throttles[0]!.take(keys)).toEqual({ outcome: "throttled", seconds: LOCK_MS / 1000 - 1 });
    expect(await throttles[1]!.take({ address: "192.0.2.7" })).toMatchObject({ outcome: "throttled" });
    // Another address for the same account is locked too; another account from another address is not.
    const elsewhere = { account: "bo@example.com", address: "198.51.100.1" };
    expect(await throttles[1]!.take(elsewhere)).toMatchObject({ outcome: "throttled" });
    expect(await throttles[1]!.take({ account: "al@example.com", address: "198.51.100.1" })).toMatchObject({
      outcome: "taken",
    });
    // A quarter hour after the last try, it starts again from nothing.
    clock += LOCK_MS;
    expect(await throttles[1]!.take(keys)).toEqual({ outcome: "taken", locking: [] });
  });

  it("takes ten of sixty tries made at once on two nodes, and says once that they lock the account", async () => {
    const [a, b] = [await open(), await open()];
    const throttles = [a, b].map((store) => createSignInThrottle({ tries: store.signInTries, now: () => clock }));
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        throttles[i % 2]!.take({ account: "cy@example.com", address: `203.0.113.${i}` }),
      ),
    );
    const taken = results.filter((r) => r.outcome === "taken");
    expect(taken).toHaveLength(FAILURES_BEFORE_LOCK);
    expect(taken.filter((r) => r.locking.includes("account"))).toHaveLength(1);
    // The fifty refused were not counted against their addresses: ten addresses hold a try, which a limit of 1 refuses.
    const again = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        a.signInTries.take([`address:203.0.113.${i}`], 1, new Date(0).toISOString()),
      ),
    );
    expect(again.filter((taken) => taken.size === 0)).toHaveLength(FAILURES_BEFORE_LOCK);
  });

  it("forgets an account's count at its success, but not its address's: signing in buys no more guesses", async () => {
    const store = await open();
    const throttle = createSignInThrottle({ tries: store.signInTries, now: () => clock });
    const from = "192.0.2.9";
    for (let i = 0; i < FAILURES_BEFORE_LOCK - 1; i++)
      await throttle.take({ account: `guess${i}@example.com`, address: from });
    // The insider signs in as themselves, after one wrong try of their own.
    await throttle.take({ account: "me@example.com", address: "198.51.100.9" });
    await throttle.take({ account: "me@example.com", address: from });
    await throttle.succeeded({ account: "me@example.com", address: from });
    expect(await store.signInTries.lastAt(["account:me@example.com"])).toBeNull();
    expect(await throttle.take({ account: "next@example.com", address: from })).toEqual({
      outcome: "taken",
      locking: ["address"],
    });
    expect(await throttle.take({ account: "me@example.com", address: from })).toMatchObject({ outcome: "throttled" });
  });

  it("deletes the tries a quarter hour old", async () => {
    const store = await open();
    const throttle = createSignInThrottle({ tries: store.signInTries, now: () => clock });
    await throttle.take({ account: "old@example.com", address: "192.0.2.10" });
    clock += LOCK_MS + 2 * 60_000;
    await throttle.take({ account: "new@example.com", address: "192.0.2.11" });
    expect(await store.signInTries.lastAt(["account:old@example.com", "address:192.0.2.10"])).toBeNull();
    expect(await store.signInTries.lastAt(["account:new@example.com"])).not.toBeNull();
  });
});

describe("addressKey", () => {
  it("counts an IPv4 address alone, an IPv6 address by its /64, and a mapped IPv4 address as IPv4", () => {
    expect(addressKey("192.0.2.7")).toBe("192.0.2.7");
    expect(addressKey("::ffff:192.0.2.7")).toBe("192.0.2.7");
    expect(addressKey("2001:db8:0:1:aaaa::1")).toBe("2001:db8:0:1::/64");
    expect(addressKey("2001:db8:0:1:bbbb:cccc:dddd:eeee")).toBe("2001:db8:0:1::/64");
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressKey("not an address")).toBe("not an address");
  });
});
