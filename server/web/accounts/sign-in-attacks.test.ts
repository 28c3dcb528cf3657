import type { InjectOptions } from "fastify";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { migrateStateDb, type Backend, type StateDb } from "../../db/state-db.ts";
import { BACKENDS, freshStateDb } from "../../testing/state-backends.ts";
import { buildWebApp, type WebAppOptions } from "../web-app.ts";
import { createAccounts, type AuditEntry, type Hasher } from "./accounts.ts";
import { hashPassword, SCRYPT_COST, verifyPassword, type ScryptCost } from "./passwords.ts";
import { FAILURES_BEFORE_LOCK } from "./sign-in-throttle.ts";
import { ACCOUNTS_MIGRATIONS } from "./users-store.ts";

// What an attacker sends: bursts, made-up tokens, hostile text, forged proxy headers. A 500 anywhere is a bug.
const PASSWORD = "correct horse battery";
const LIGHT = { N: 2 ** 11, r: 8, p: 3 };
const same = { "sec-fetch-site": "same-origin" };
const open: { close(): Promise<unknown> }[] = [];

afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

/** The app on `backend` with maria@ and ana@ (a password) and new@ (a one-time link only); what it records and hashes. */
async function appOn(backend: Backend, options: Partial<WebAppOptions> = {}, cost: ScryptCost = LIGHT) {
  const state: StateDb = await freshStateDb(backend, "sign_in_attacks");
  open.push(state);
  await migrateStateDb(state, "app", ACCOUNTS_MIGRATIONS);
  const audit: AuditEntry[] = [];
  const hashed = { hash: 0, verify: 0 };
  const hasher: Hasher = {
    hash: (password) => (hashed.hash++, hashPassword(password, cost)),
    verify: (password, stored) => (hashed.verify++, verifyPassword(password, stored)),
  };
  const accounts = createAccounts({ state, audit: (e) => audit.push(e), appUrl: "http://app.test", hasher });
  for (const email of ["maria@example.com", "ana@example.com"]) {
    const { user } = await accounts.addUser(email, "member", null, null);
    await accounts.setPassword(user.id, PASSWORD, null);
  }
  const { link } = await accounts.addUser("new@example.com", "member", null, null);
  const app = await buildWebApp({ apiBaseUrl: "http://127.0.0.1:9", apiKey: "k", signIn: { accounts }, ...options });
  open.push(app); // closed before its database: last in, first out
  Object.assign(hashed, { hash: 0, verify: 0 });
  return { app, accounts, audit, hashed, token: new URL(link).searchParams.get("token")! };
}

type App = Awaited<ReturnType<typeof appOn>>["app"];
const signIn = (app: App, email: string, password: string, remoteAddress = "10.9.0.1", headers = {}) =>
  app.inject({
    method: "POST",
    url: "/api/sign-in",
    headers: { ...same, ...headers },
    payload: { email, password },
    remoteAddress,
  });
const setPassword = (app: App, token: string, remoteAddress = "10.9.0.1") =>
  app.inject({
    method: "POST",
    url: "/api/password",
    headers: same,
    payload: { token, password: "a new long password" },
    remoteAddress,
  });
const statuses = (responses: { statusCode: number }[]) =>
  responses.reduce<Record<number, number>>(
    (count, r) => ({ ...count, [r.statusCode]: (count[r.statusCode] ?? 0) + 1 }),
    {},
  );
const lockouts = (audit: AuditEntry[]) => audit.filter((e) => e.action === "sign-in failed");

describe.each(BACKENDS)("sign-in under attack, on %s", (backend) => {
  it("answers sixty wrong passwords sent at once over HTTP with at most ten 401s, the rest 429", async () => {
    const { app, audit } = await appOn(backend);
    const url = await app.listen({ host: "127.0.0.1", port: 0 });
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        fetch(`${url}/api/sign-in`, {
          method: "POST",
          headers: { "content-type": "application/json", ...same },
          body: JSON.stringify({ email: "maria@example.com", password: `guess ${i}` }),
        }),
      ),
    );
    const count = statuses(answers.map((r) => ({ statusCode: r.status })));
    expect(count[401]).toBeLessThanOrEqual(FAILURES_BEFORE_LOCK);
    expect(count[401]! + count[429]!).toBe(60);
    expect(answers.find((r) => r.status === 429)?.headers.get("retry-after")).toMatch(/^\d+$/);
    // The account and the address locked by the same try: two entries in the record, not sixty.
    expect(lockouts(audit).map((e) => e.detail)).toEqual([
      expect.stringMatching(/^10 failed sign-ins in a row as maria@example\.com, the last from 127\.0\.0\.1: locked/),
      expect.stringMatching(/^10 failed tries in a row from 127\.0\.0\.1, the last as maria@example\.com: locked/),
    ]);
  });

  it("locks an account tried from sixty addresses at once, and an address trying sixty accounts at once", async () => {
    const { app, audit } = await appOn(backend);
    const oneAccount = await Promise.all(
      Array.from({ length: 60 }, (_, i) => signIn(app, "maria@example.com", `guess ${i}`, `198.51.100.${i}`)),
    );
    expect(statuses(oneAccount)).toEqual({ 401: FAILURES_BEFORE_LOCK, 429: 60 - FAILURES_BEFORE_LOCK });
    const oneAddress = await Promise.all(
      Array.from({ length: 60 }, (_, i) => signIn(app, `guess${i}@example.com`, "whatever", "203.0.113.5")),
    );
    expect(statuses(oneAddress)).toEqual({ 401: FAILURES_BEFORE_LOCK, 429: 60 - FAILURES_BEFORE_LOCK });
    expect(lockouts(audit)).toHaveLength(2);
    expect(lockouts(audit)[0]).toMatchObject({ user: { email: "maria@example.com" } });
    // Neither lock reaches anyone else: another account from another address signs in.
    expect((await signIn(app, "ana@example.com", PASSWORD, "192.0.2.1")).statusCode).toBe(200);
  });

  it("looks a password link's token up before hashing anything, and throttles made-up tokens per address", async () => {
    const { app, hashed, token } = await appOn(backend);
    const guesses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => setPassword(app, `made-up-token-${i}`, "203.0.113.7")),
    );
    expect(statuses(guesses)).toEqual({ 400: FAILURES_BEFORE_LOCK, 429: 30 - FAILURES_BEFORE_LOCK });
    expect(guesses.find((r) => r.statusCode === 429)?.json()).toMatchObject({ status: 429 });
    expect(hashed).toEqual({ hash: 0, verify: 0 });
    // The real link, from the address that guessed, waits too; from its own address it works, with one hash.
    expect((await setPassword(app, token, "203.0.113.7")).statusCode).toBe(429);
    expect((await setPassword(app, token, "192.0.2.20")).statusCode).toBe(200);
    expect(hashed.hash).toBe(1);
  });

  it("answers made-up password tokens within 50 ms each, with the app's own scrypt cost behind a known one", async () => {
    const { app, hashed } = await appOn(backend, {}, SCRYPT_COST);
    const took: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      const answer = await setPassword(app, `random-${Math.random().toString(36).slice(2)}`, `192.0.2.${100 + i}`);
      took.push(performance.now() - started);
      expect(answer.statusCode).toBe(400);
    }
    expect(hashed).toEqual({ hash: 0, verify: 0 });
    // One scrypt at the app's cost takes a tenth of a second or more: the median says none ran, and the slowest
    // leaves room for a busy machine (the hash count above is the proof).
    took.sort((a, b) => a - b);
    expect(took[10]).toBeLessThan(50);
    expect(took.at(-1)).toBeLessThan(250);
  });

  it("ends the user's other sessions when a link sets their password", async () => {
    const { app, accounts } = await appOn(backend);
    const signedIn = await signIn(app, "maria@example.com", PASSWORD);
    const cookie = signedIn.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    expect((await app.inject({ url: "/api/session", headers: { cookie } })).statusCode).toBe(200);
    const maria = (await accounts.store.userByEmail("maria@example.com"))!;
    const token = new URL(await accounts.resetLink(maria.id, null)).searchParams.get("token")!;
    const set = await setPassword(app, token);
    expect(set.statusCode).toBe(200);
    expect((await app.inject({ url: "/api/session", headers: { cookie } })).statusCode).toBe(401);
    const fresh = set.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    expect((await app.inject({ url: "/api/session", headers: { cookie: fresh } })).statusCode).toBe(200);
  });

  it("answers hostile input on every sign-in route with a 4xx problem, never a 500", async () => {
    const { app } = await appOn(backend);
    const hostile = ["\u0000", "a\u0000@example.com", "\r\nset-cookie: x=1", "\t", "%0A", "%2F..%2F", "\\", "\ud800"];
    const requests: InjectOptions[] = [
      ...hostile.flatMap((text) => [
        { method: "POST", url: "/api/sign-in", payload: { email: text, password: text } },
        { method: "POST", url: "/api/sign-in", payload: { email: "maria@example.com", password: text } },
        { method: "POST", url: "/api/password", payload: { token: text, password: `${text} long enough password` } },
      ]),
      { method: "POST", url: "/api/sign-in", payload: "not json", headers: { "content-type": "application/json" } },
      { method: "POST", url: "/api/sign-in", payload: "email=a&password=b" },
      { method: "POST", url: "/api/sign-in", payload: [1, 2] },
      { method: "POST", url: "/api/sign-in", payload: { email: 1, password: null } },
      { method: "POST", url: "/api/password", payload: { token: ["a"], password: "a long enough password" } },
      { method: "POST", url: "/api/sign-in", payload: { email: "x".repeat(2 ** 21), password: "y" } },
      { method: "GET", url: "/api/sign-in?next=%0D%0A%09%5C" },
      { method: "GET", url: "/api/sign-in/oidc?next=%2F%0A%2Fevil.example" },
      { method: "GET", url: "/api/sign-in/oidc/callback?code=%0D%0A&state=%00" },
      { method: "GET", url: "/sign-in?next=%2F%0D%0A%2Fevil.example", headers: { accept: "text/html" } },
      { method: "GET", url: "/%0A/evil.example", headers: { accept: "text/html" } },
      { method: "GET", url: "/license/%E0%A4%A", headers: { accept: "text/html" } },
    ];
    // Each from an address of its own: the throttle is not what is being tried here.
    const answers = await Promise.all(
      requests.map((request, i) =>
        app.inject({
          ...request,
          headers: { ...same, ...request.headers },
          remoteAddress: `10.20.${Math.floor(i / 250)}.${i % 250}`,
        }),
      ),
    );
    const failed = answers
      .map((r, i) => `${r.statusCode} ${requests[i]!.url as string}`)
      .filter((line) => /^5/.test(line));
    expect(failed).toEqual([]);
    for (const answer of answers.filter((r) => r.statusCode >= 400)) {
      expect(answer.headers["content-type"]).toMatch(/^application\/problem\+json/);
    }
    expect(answers[0]!.statusCode).toBe(400);
    // Hostile text is refused, or tried as any other: never throttled by a key the database stored otherwise.
    expect(answers.filter((r) => r.statusCode === 429)).toEqual([]);
  });
});

describe("behind a proxy", () => {
  const signedInCookie = (response: { headers: Record<string, unknown> }) =>
    [response.headers["set-cookie"]].flat().find((c) => String(c).startsWith("lls_session=")) as string | undefined;

  it("counts each client by the address a trusted proxy names, and ignores the header from anyone else", async () => {
    const { app, audit } = await appOn("sqlite", { trustProxy: ["10.0.0.0/8"] });
    const viaProxy = (email: string, password: string, client: string) =>
      signIn(app, email, password, "10.0.0.2", { "x-forwarded-for": client });
    for (let i = 0; i < FAILURES_BEFORE_LOCK; i++) {
      expect((await viaProxy(`guess${i}@example.com`, "wrong", "192.0.2.66")).statusCode).toBe(401);
    }
    expect((await viaProxy("maria@example.com", PASSWORD, "192.0.2.66")).statusCode).toBe(429);
    // Another client through the same proxy is not held by the first one's failures.
    const other = await viaProxy("maria@example.com", PASSWORD, "192.0.2.77");
    expect(other.statusCode).toBe(200);
    expect(audit.at(-1)).toMatchObject({ action: "sign-in", detail: "password, from 192.0.2.77" });
    expect(lockouts(audit).at(-1)?.detail).toMatch(/from 192\.0\.2\.66/);
    // A client that is not the proxy cannot name an address of its choosing: it is counted as itself.
    const forged = await signIn(app, "maria@example.com", PASSWORD, "192.0.2.66", { "x-forwarded-for": "192.0.2.88" });
    expect(forged.statusCode).toBe(429);
  });

  it("marks the session cookie Secure and sends HSTS when a trusted proxy says the request came over HTTPS", async () => {
    const { app } = await appOn("sqlite", { trustProxy: ["10.0.0.0/8"] });
    const https = await signIn(app, "maria@example.com", PASSWORD, "10.0.0.2", { "x-forwarded-proto": "https" });
    expect(https.statusCode).toBe(200);
    expect(signedInCookie(https)).toMatch(/; Secure/);
    expect(https.headers["strict-transport-security"]).toBe("max-age=31536000");
    const plain = await signIn(app, "maria@example.com", PASSWORD, "10.0.0.2", { "x-forwarded-proto": "http" });
    expect(signedInCookie(plain)).not.toMatch(/Secure/);
    expect(plain.headers["strict-transport-security"]).toBeUndefined();
    // Said by a client that is not the proxy, it is not believed.
    const forged = await signIn(app, "maria@example.com", PASSWORD, "192.0.2.5", { "x-forwarded-proto": "https" });
    expect(signedInCookie(forged)).not.toMatch(/Secure/);
    expect(forged.headers["strict-transport-security"]).toBeUndefined();
  });

  it("marks the session cookie Secure whenever APP_URL is https, and still keeps the session", async () => {
    const { app } = await appOn("sqlite", { https: true });
    const response = await signIn(app, "maria@example.com", PASSWORD);
    const set = signedInCookie(response)!;
    expect(set).toMatch(/; Secure/);
    expect(set).toMatch(/HttpOnly/);
    expect(response.headers["strict-transport-security"]).toBe("max-age=31536000");
    const cookie = set.split(";", 1)[0]!;
    expect((await app.inject({ url: "/api/session", headers: { cookie } })).statusCode).toBe(200);
    expect((await app.inject({ url: "/missing" })).headers["strict-transport-security"]).toBe("max-age=31536000");
  });
});

describe("a request Node's parser refuses", () => {
  /** What the server answers to `text` sent as it is on a socket of its own: status line and body. */
  const raw = (port: number, text: string) =>
    new Promise<{ head: string; body: string }>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => socket.end(text));
      let answer = "";
      socket.on("data", (chunk: Buffer) => (answer += chunk.toString("utf8")));
      socket.on("error", reject);
      socket.on("close", () => {
        const [head = "", body = ""] = answer.split("\r\n\r\n");
        resolve({ head, body });
      });
    });

  it("is answered 400 with a problem, not Fastify's own JSON, whatever the sign-in route", async () => {
    const { app } = await appOn("sqlite");
    await app.listen({ host: "127.0.0.1", port: 0 });
    const { port } = app.server.address() as { port: number };
    const body = JSON.stringify({ email: "maria@example.com", password: PASSWORD });
    for (const request of [
      "GET /api/sign-in/oidc?next=/\t/evil.example HTTP/1.1\r\nHost: app.test\r\n\r\n",
      "GET /api/sign-in/oidc/callback?code=\r/evil.example HTTP/1.1\r\nHost: app.test\r\n\r\n",
      `POST /api/sign-in HTTP/1.1\r\nHost: app.test\r\nX-Forwarded-For: \u0001\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    ]) {
      const { head, body: answer } = await raw(port, request);
      expect(head, request).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(head).toMatch(/\r\nContent-Type: application\/problem\+json\r\n/i);
      expect(JSON.parse(answer)).toMatchObject({ status: 400, title: "Bad request", detail: expect.any(String) });
    }
  });
});
