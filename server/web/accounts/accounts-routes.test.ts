import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { licenseRecord, startFakeService, type FakeService } from "../../testing/fake-license-service.ts";
import type { StateDb } from "../../db/state-db.ts";
import { freshPostgresUrl } from "../../testing/state-backends.ts";
import { openAppState } from "../app-db.ts";
import { buildWebApp } from "../web-app.ts";
import { createWatchlist } from "../watchlist/watchlist.ts";
import { createAccounts, type AuditEntry } from "./accounts.ts";
import { FAILURES_BEFORE_LOCK } from "./sign-in-throttle.ts";

let dir: string;
let service: FakeService;
let db: StateDb;
let app: Awaited<ReturnType<typeof buildWebApp>>;
const audit: AuditEntry[] = [];
let accounts: ReturnType<typeof createAccounts>;
const PASSWORD = "correct horse battery";
// Dozens of sign-ins: scrypt at a sixteenth of the app's memory (the cost is stored with each hash).
const LIGHT = { N: 2 ** 11, r: 8, p: 3 };
const same = { "sec-fetch-site": "same-origin" };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "accounts-"));
  mkdirSync(join(dir, "dist"));
  writeFileSync(join(dir, "dist", "index.html"), "<!doctype html><div id=root></div>");
  service = await startFakeService();
  service.records.set("ny/0012345", licenseRecord("ny", "0012345"));
  const file = join(dir, "app.sqlite");
  db = await openAppState({ file });
  accounts = createAccounts({
    state: db,
    audit: (entry) => audit.push(entry),
    appUrl: "http://app.test",
    scryptCost: LIGHT,
  });
  for (const [email, role] of [
    ["maria@example.com", "member"],
    ["audrey@example.com", "auditor"],
    ["ada@example.com", "admin"],
    ["guessed@example.com", "member"],
  ] as const) {
    const { user } = await accounts.addUser(email, role, null, null);
    await accounts.setPassword(user.id, PASSWORD, null);
  }
  const watchlist = await createWatchlist({
    state: db,
    service: { baseUrl: service.url, apiKey: "k", requestsPerSecond: 1000 },
    appUrl: "http://app.test",
    checkEveryMs: null,
    checkOnStart: false,
  });
  app = await buildWebApp({
    distDir: join(dir, "dist"),
    apiBaseUrl: service.url,
    apiKey: "k",
    watchlist,
    signIn: { accounts },
  });
});

afterAll(async () => {
  await app.close();
  await db.close();
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Signs in through the route, as the page does; the session's cookie. */
async function signIn(email: string, password = PASSWORD, address = "10.0.0.1") {
  const response = await app.inject({
    method: "POST",
    url: "/api/sign-in",
    headers: same,
    payload: { email, password },
    remoteAddress: address,
  });
  const cookie = response.cookies.find((c) => c.name === "lls_session");
  return { response, cookie: cookie ? `${cookie.name}=${cookie.value}` : "" };
}

describe("without a session", () => {
  it("answers /v2 and /api with 401 problem+json, and sends a page to sign-in and back", async () => {
    for (const url of ["/v2/license/ny/0012345", "/api/watchlist", "/api/session", "/api/users"]) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(401);
      expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(response.json()).toMatchObject({ status: 401, title: "Sign-in required" });
    }
    const page = await app.inject({ url: "/license/ny/0012345?from=email", headers: { accept: "text/html" } });
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe(`/sign-in?next=${encodeURIComponent("/license/ny/0012345?from=email")}`);
    const signInPage = await app.inject({ url: "/sign-in?next=%2F", headers: { accept: "text/html" } });
    expect(signInPage.statusCode).toBe(200);
    expect(signInPage.body).toContain("<div id=root>");
  });

  it("tells the sign-in page which ways in there are", async () => {
    const response = await app.inject({ url: "/api/sign-in" });
    expect(response.json()).toEqual({ data: { password: true, oidc: null } });
  });
});

describe("signing in", () => {
  it("starts a session whose cookie is HttpOnly and SameSite, and reads licenses with it", async () => {
    const { response, cookie } = await signIn("Maria@Example.com ");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ data: { user: { email: "maria@example.com", role: "member" } } });
    const set = String(response.headers["set-cookie"]);
    expect(set).toMatch(/HttpOnly/);
    expect(set).toMatch(/SameSite=Lax/);
    expect(set).not.toMatch(/Secure/); // plain http here; over HTTPS it is Secure
    const license = await app.inject({ url: "/v2/license/ny/0012345", headers: { cookie } });
    expect(license.statusCode).toBe(200);
    expect(license.json()).toMatchObject({ data: { license: "0012345" } });
    expect(audit.at(-1)).toMatchObject({ action: "sign-in", user: { email: "maria@example.com" } });
  });

  it("answers an unknown email exactly as a wrong password, and records neither until a lockout", async () => {
    const unknown = await signIn("nobody@example.com", PASSWORD, "10.0.0.2");
    const wrong = await signIn("maria@example.com", "not her password", "10.0.0.3");
    expect(unknown.response.statusCode).toBe(401);
    expect(wrong.response.statusCode).toBe(401);
    const body = (r: typeof unknown) => {
      const { request_id: _, ...rest } = r.response.json<Record<string, unknown>>();
      return rest;
    };
    expect(body(unknown)).toEqual(body(wrong));
    expect(unknown.cookie).toBe("");
    expect(audit.filter((e) => e.action === "sign-in failed")).toEqual([]);
  });

  it("refuses the eleventh try in a row for an account with 429 and Retry-After, even with the right password", async () => {
    const tries = await Promise.all(
      Array.from({ length: FAILURES_BEFORE_LOCK }, (_, i) =>
        signIn("guessed@example.com", `guess ${i}`, `10.1.0.${i}`),
      ),
    );
    expect(tries.map((t) => t.response.statusCode)).toEqual(Array(FAILURES_BEFORE_LOCK).fill(401));
    const { response } = await signIn("guessed@example.com", PASSWORD, "10.1.0.99");
    expect(response.statusCode).toBe(429);
    expect(Number(response.headers["retry-after"])).toBeGreaterThan(0);
    expect(response.json()).toMatchObject({ status: 429 });
    // One entry in the record for the lockout, not one per failed try.
    const locked = audit.filter((e) => e.action === "sign-in failed" && e.detail?.includes("guessed@example.com"));
    expect(locked).toEqual([
      {
        action: "sign-in failed",
        user: { email: "guessed@example.com", name: null, role: "member" },
        detail: expect.stringMatching(
          /^10 failed sign-ins in a row as guessed@example\.com, the last from 10\.1\.0\.\d+: locked for 15 minutes$/,
        ),
      },
    ]);
  });

  it("refuses the eleventh try in a row from one address, whichever accounts it tries", async () => {
    await Promise.all(
      Array.from({ length: FAILURES_BEFORE_LOCK }, (_, i) =>
        signIn(`guess${i}@example.com`, "whatever it is", "10.2.0.1"),
      ),
    );
    const { response } = await signIn("ada@example.com", PASSWORD, "10.2.0.1");
    expect(response.statusCode).toBe(429);
    const elsewhere = await signIn("ada@example.com", PASSWORD, "10.2.0.2");
    expect(elsewhere.response.statusCode).toBe(200);
  });

  it("ends the session at sign-out", async () => {
    const { cookie } = await signIn("maria@example.com");
    expect((await app.inject({ url: "/api/session", headers: { cookie } })).statusCode).toBe(200);
    const out = await app.inject({ method: "POST", url: "/api/sign-out", headers: { cookie, ...same } });
    expect(out.statusCode).toBe(204);
    expect((await app.inject({ url: "/api/session", headers: { cookie } })).statusCode).toBe(401);
  });

  it("refuses a change sent from another site, signed in or not", async () => {
    const { cookie } = await signIn("maria@example.com");
    const response = await app.inject({
      method: "PUT",
      url: "/api/watchlist/ny/0012345",
      headers: { cookie, "sec-fetch-site": "cross-site" },
    });
    expect(response.statusCode).toBe(403);
    const byOrigin = await app.inject({
      method: "PUT",
      url: "/api/watchlist/ny/0012345",
      headers: { cookie, origin: "https://evil.example", host: "app.test" },
    });
    expect(byOrigin.statusCode).toBe(403);
  });
});

describe("roles, on the server", () => {
  it("lets a member watch, an auditor only read, and only an admin manage users", async () => {
    const member = (await signIn("maria@example.com")).cookie;
    const auditor = (await signIn("audrey@example.com", PASSWORD, "10.3.0.1")).cookie;
    const admin = (await signIn("ada@example.com", PASSWORD, "10.3.0.2")).cookie;
    const put = (cookie: string) =>
      app.inject({ method: "PUT", url: "/api/watchlist/ny/0012345", headers: { cookie, ...same } });

    expect((await put(member)).statusCode).toBe(200);
    const refused = await put(auditor);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ detail: expect.stringContaining("auditor") });
    expect((await app.inject({ url: "/api/watchlist", headers: { cookie: auditor } })).statusCode).toBe(200);
    expect(
      (await app.inject({ method: "POST", url: "/api/watchlist/check", headers: { cookie: auditor, ...same } }))
        .statusCode,
    ).toBe(403);

    for (const cookie of [member, auditor]) {
      expect((await app.inject({ url: "/api/users", headers: { cookie } })).statusCode).toBe(403);
    }
    const users = await app.inject({ url: "/api/users", headers: { cookie: admin } });
    expect(users.statusCode).toBe(200);
    expect(users.json<{ data: { email: string }[] }>().data.map((u) => u.email)).toContain("audrey@example.com");
  });

  it("lets an admin add a user whose one-time link sets a password and signs them in, once", async () => {
    const admin = (await signIn("ada@example.com", PASSWORD, "10.4.0.1")).cookie;
    const added = await app.inject({
      method: "POST",
      url: "/api/users",
      headers: { cookie: admin, ...same },
      payload: { email: "new@example.com", role: "member", name: "New Person" },
    });
    expect(added.statusCode).toBe(201);
    const { link } = added.json<{ data: { link: string } }>().data;
    expect(link).toMatch(/^http:\/\/app\.test\/set-password\?token=/);
    const token = new URL(link).searchParams.get("token")!;

    const short = await app.inject({
      method: "POST",
      url: "/api/password",
      headers: same,
      payload: { token, password: "short" },
    });
    expect(short.statusCode).toBe(400);
    const set = await app.inject({
      method: "POST",
      url: "/api/password",
      headers: same,
      payload: { token, password: "a long enough password" },
    });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ data: { user: { email: "new@example.com", name: "New Person" } } });
    const again = await app.inject({
      method: "POST",
      url: "/api/password",
      headers: same,
      payload: { token, password: "another long password" },
    });
    expect(again.statusCode).toBe(400);
    expect((await signIn("new@example.com", "a long enough password", "10.4.0.2")).response.statusCode).toBe(200);
    expect(audit.some((e) => e.action === "user added" && e.detail === "new@example.com as member")).toBe(true);
  });

  it("lets an admin end a user's sessions and change their role, and keeps the last admin", async () => {
    const admin = (await signIn("ada@example.com", PASSWORD, "10.5.0.1")).cookie;
    const member = (await signIn("maria@example.com", PASSWORD, "10.5.0.2")).cookie;
    const maria = (await accounts.store.userByEmail("maria@example.com"))!;
    const end = await app.inject({
      method: "DELETE",
      url: `/api/users/${maria.id}/sessions`,
      headers: { cookie: admin, ...same },
    });
    expect(end.statusCode).toBe(204);
    expect((await app.inject({ url: "/api/session", headers: { cookie: member } })).statusCode).toBe(401);

    const ada = (await accounts.store.userByEmail("ada@example.com"))!;
    const demote = await app.inject({
      method: "PATCH",
      url: `/api/users/${ada.id}`,
      headers: { cookie: admin, ...same },
      payload: { role: "member" },
    });
    expect(demote.statusCode).toBe(409);
    expect(demote.json()).toMatchObject({ detail: expect.stringContaining("only administrator") });
    const promote = await app.inject({
      method: "PATCH",
      url: `/api/users/${maria.id}`,
      headers: { cookie: admin, ...same },
      payload: { role: "auditor" },
    });
    expect(promote.json()).toMatchObject({ data: { email: "maria@example.com", role: "auditor" } });
    expect(audit.at(-1)).toMatchObject({ action: "role changed", detail: "maria@example.com: member → auditor" });
  });
});

/** An app of its own whose clock the test moves, and the cookie of `email` signed in there at `clock.at`. */
async function signedInOnClock(name: string, email: string, clock: { at: number }) {
  const state = await openAppState({ file: join(dir, `${name}.sqlite`) });
  const accounts = createAccounts({
    state,
    audit: () => {},
    appUrl: "http://app.test",
    now: () => new Date(clock.at),
    scryptCost: LIGHT,
  });
  const { user } = await accounts.addUser(email, "member", null, null);
  await accounts.setPassword(user.id, PASSWORD, null);
  const web = await buildWebApp({ apiBaseUrl: service.url, apiKey: "k", signIn: { accounts } });
  const response = await web.inject({
    method: "POST",
    url: "/api/sign-in",
    headers: same,
    payload: { email, password: PASSWORD },
  });
  const set = response.cookies.find((c) => c.name === "lls_session")!;
  const cookie = `${set.name}=${set.value}`;
  return {
    user,
    accounts,
    session: () => web.inject({ url: "/api/session", headers: { cookie } }),
    close: async () => {
      await web.close();
      await state.close();
    },
  };
}

describe("a session left idle", () => {
  it("ends after 12 hours without a request, and lasts while it is used", async () => {
    const clock = { at: Date.parse("2027-03-03T15:00:00Z") };
    const { session, close } = await signedInOnClock("idle", "night@example.com", clock);
    try {
      clock.at += 11 * 3_600_000;
      expect((await session()).statusCode).toBe(200);
      clock.at += 11 * 3_600_000; // 22 hours after sign-in, 11 after its last use
      expect((await session()).statusCode).toBe(200);
      clock.at += 12 * 3_600_000 + 60_000;
      expect((await session()).statusCode).toBe(401);
    } finally {
      await close();
    }
  });
});

describe("a session's last use", () => {
  it("is written at most once a minute, not on every request", async () => {
    const clock = { at: Date.parse("2027-03-03T15:00:00Z") };
    const signedInAt = new Date(clock.at).toISOString();
    const { user, accounts, session, close } = await signedInOnClock("seen", "day@example.com", clock);
    // Sessions used after the sign-in: none until its last use is written again.
    const usedSince = async () => (await accounts.store.listed(user.id, signedInAt))!.active_sessions;
    try {
      clock.at += 30_000;
      expect((await session()).statusCode).toBe(200);
      expect(await usedSince()).toBe(0);
      clock.at += 31_000;
      expect((await session()).statusCode).toBe(200);
      expect(await usedSince()).toBe(1);
    } finally {
      await close();
    }
  });
});

describe("two app nodes on one PostgreSQL", () => {
  it("share sessions: signed in through one, signed in on the other, and signed out on both", async () => {
    const url = await freshPostgresUrl("two_nodes");
    const nodes = await Promise.all(
      ["a", "b"].map(async (name) => {
        // No SESSION_SECRET: each node takes the one kept in the database, the first node's.
        const state = await openAppState({ url, file: join(dir, `unused-${name}.sqlite`) });
        const accounts = createAccounts({ state, audit: () => {}, appUrl: "http://app.test", scryptCost: LIGHT });
        const web = await buildWebApp({ apiBaseUrl: service.url, apiKey: "k", signIn: { accounts } });
        return { state, accounts, web };
      }),
    );
    const [a, b] = nodes as [(typeof nodes)[0], (typeof nodes)[0]];
    try {
      const { user } = await a.accounts.addUser("pat@example.com", "member", null, null);
      await a.accounts.setPassword(user.id, PASSWORD, null);
      const response = await a.web.inject({
        method: "POST",
        url: "/api/sign-in",
        headers: same,
        payload: { email: "pat@example.com", password: PASSWORD },
      });
      expect(response.statusCode).toBe(200);
      const set = response.cookies.find((c) => c.name === "lls_session")!;
      const cookie = `${set.name}=${set.value}`;

      const onB = await b.web.inject({ url: "/api/session", headers: { cookie } });
      expect(onB.statusCode).toBe(200);
      expect(onB.json()).toMatchObject({ data: { user: { email: "pat@example.com" } } });
      expect(
        (await b.web.inject({ method: "POST", url: "/api/sign-out", headers: { cookie, ...same } })).statusCode,
      ).toBe(204);
      expect((await a.web.inject({ url: "/api/session", headers: { cookie } })).statusCode).toBe(401);
    } finally {
      for (const node of nodes) {
        await node.web.close();
        await node.state.close();
      }
    }
  });
});
