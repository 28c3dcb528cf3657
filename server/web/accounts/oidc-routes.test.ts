import { Writable } from "node:stream";
import cookie from "@fastify/cookie";
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { signInAtProvider, startOidcProvider } from "../../testing/oidc-provider.ts";
import { OIDC_CALLBACK_PATH, oidcRoutes } from "./oidc-routes.ts";
import { createOidcSignIn, type OidcClaims } from "./oidc-sign-in.ts";

const APP = "https://lookup.example.com";
const NEXT = "/license/ny/1268007";

let provider: Awaited<ReturnType<typeof startOidcProvider>>;
let app: FastifyInstance;
const signedIn: OidcClaims[] = [];
const logLines: Record<string, unknown>[] = [];

beforeAll(async () => {
  provider = await startOidcProvider({
    accounts: [
      { email: "maria@example.com", name: "Maria Lopez" },
      { email: "unverified@example.com", name: "Una Verified", email_verified: false },
    ],
    redirectUris: [`${APP}${OIDC_CALLBACK_PATH}`],
  });
  const oidc = createOidcSignIn({
    issuer: provider.issuer,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    redirectUri: `${APP}${OIDC_CALLBACK_PATH}`,
  });
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(JSON.parse(chunk.toString("utf8")) as Record<string, unknown>);
      done();
    },
  });
  app = Fastify({ logger: { level: "info", stream } });
  await app.register(cookie, { secret: "a test secret of the app server, long enough" });
  await app.register(
    oidcRoutes({
      oidc,
      // The accounts' stand-in: only maria@ and unverified@ are users; a session is a cookie naming the email.
      signIn: async (_request, reply, claims) => {
        signedIn.push(claims);
        if (!claims.email.endsWith("@example.com")) return "not-allowed";
        reply.setCookie("session", claims.email, { path: "/" });
        return "ok";
      },
    }),
  );
});

afterAll(async () => {
  await app?.close();
  await provider?.close();
});

beforeEach(() => {
  signedIn.length = 0;
  logLines.length = 0;
});

function cookieOf(response: LightMyRequestResponse, name: string) {
  return response.cookies.find((c) => c.name === name);
}

/** The browser's round trip: the app's sign-in link, the provider's pages as `login`, and back to the app. */
async function signInAs(login: string, { next = NEXT, tamper = (url: URL) => url } = {}) {
  const started = await app.inject({ url: `/api/sign-in/oidc?next=${encodeURIComponent(next)}` });
  expect(started.statusCode).toBe(302);
  const pending = cookieOf(started, "oidc_pending");
  const callback = tamper(await signInAtProvider(started.headers.location as string, login));
  expect(callback.origin).toBe(APP);
  const finished = await app.inject({
    url: `${callback.pathname}${callback.search}`,
    cookies: pending ? { oidc_pending: pending.value } : {},
  });
  return { started, finished };
}

describe("sign-in through the identity provider", () => {
  it("brings a known account back to the page asked for, signed in with the provider's email, name and subject", async () => {
    const { started, finished } = await signInAs("maria@example.com");

    expect(started.headers.location).toMatch(new RegExp(`^${provider.issuer}/auth\\?`));
    const pending = cookieOf(started, "oidc_pending");
    expect(pending).toMatchObject({
      httpOnly: true,
      sameSite: "Lax",
      secure: true,
      path: "/api/sign-in/oidc",
      maxAge: 600,
    });
    // Signed: what the round trip must bring back cannot be changed by the browser.
    expect(pending?.value).toMatch(/\.[A-Za-z0-9+/_-]+$/);

    expect(finished.statusCode).toBe(302);
    expect(finished.headers.location).toBe(NEXT);
    expect(cookieOf(finished, "session")?.value).toBe("maria@example.com");
    expect(signedIn).toEqual([{ email: "maria@example.com", name: "Maria Lopez", sub: "maria@example.com" }]);
    // Spent: the same callback cannot be replayed with it.
    expect(cookieOf(finished, "oidc_pending")?.value).toBe("");
  });

  it("sends a person the app does not let in to the sign-in page, keeping the page asked for", async () => {
    const { finished } = await signInAs("stranger@elsewhere.org");

    expect(finished.headers.location).toBe(`/sign-in?error=not-allowed&next=${encodeURIComponent(NEXT)}`);
    expect(cookieOf(finished, "session")).toBeUndefined();
    expect(signedIn.map((c) => c.email)).toEqual(["stranger@elsewhere.org"]);
  });

  it("refuses a callback whose state was changed on the way, logging why with the request id", async () => {
    const { finished } = await signInAs("maria@example.com", {
      tamper: (url) => {
        url.searchParams.set("state", "forged");
        return url;
      },
    });

    expect(finished.headers.location).toBe(`/sign-in?error=oidc-failed&next=${encodeURIComponent(NEXT)}`);
    expect(finished.body).toBe("");
    expect(signedIn).toEqual([]);
    const logged = logLines.find((line) => line.msg === "OpenID sign-in refused");
    expect(logged?.reqId).toEqual(expect.any(String));
    expect(JSON.stringify(logged?.err)).toMatch(/state/);
  });

  it("sends a person the provider turned away (access_denied) to the sign-in page", async () => {
    const { finished } = await signInAs("maria@example.com", {
      tamper: (url) => {
        const refused = new URL(url.pathname, url);
        refused.search = new URLSearchParams({
          error: "access_denied",
          error_description: "End-User aborted interaction",
          state: url.searchParams.get("state") ?? "",
          iss: url.searchParams.get("iss") ?? "",
        }).toString();
        return refused;
      },
    });

    expect(finished.headers.location).toBe(`/sign-in?error=oidc-failed&next=${encodeURIComponent(NEXT)}`);
    expect(signedIn).toEqual([]);
    expect(JSON.stringify(logLines.find((line) => line.msg === "OpenID sign-in refused")?.err)).toMatch(
      /access_denied/,
    );
  });

  it("refuses an email the provider does not say is verified", async () => {
    const { finished } = await signInAs("unverified@example.com");

    expect(finished.headers.location).toBe(`/sign-in?error=unverified-email&next=${encodeURIComponent(NEXT)}`);
    expect(signedIn).toEqual([]);
  });

  it("refuses a callback that comes without the cookie its start set, or with one altered", async () => {
    const started = await app.inject({ url: `/api/sign-in/oidc?next=${encodeURIComponent(NEXT)}` });
    const pending = cookieOf(started, "oidc_pending")!;
    const callback = await signInAtProvider(started.headers.location as string, "maria@example.com");
    const path = `${callback.pathname}${callback.search}`;

    const without = await app.inject({ url: path });
    const [value = "", signature = ""] = pending.value.split(/\.(?=[^.]*$)/);
    const forged = JSON.stringify({ ...(JSON.parse(value) as object), next: "/watchlist" });
    const altered = await app.inject({ url: path, cookies: { oidc_pending: `${forged}.${signature}` } });

    expect(without.headers.location).toBe("/sign-in?error=oidc-failed&next=%2F");
    expect(altered.headers.location).toBe("/sign-in?error=oidc-failed&next=%2F");
    expect(signedIn).toEqual([]);
  });

  it("never returns to another site, whatever next says", async () => {
    const { finished } = await signInAs("maria@example.com", { next: "//evil.example/phish" });

    expect(finished.headers.location).toBe("/");
  });

  it.each(["/\t/evil.example", "/\n/evil.example", "/\r\n/evil.example", "/\\evil.example", "/.//evil.example"])(
    "returns to the app's home page, not another site nor a 500, when next is %j",
    async (next) => {
      const { finished } = await signInAs("maria@example.com", { next });

      expect(finished.statusCode).toBe(302);
      expect(finished.headers.location).toBe("/");
      expect(cookieOf(finished, "session")?.value).toBe("maria@example.com");
    },
  );

  it("answers a callback whose query holds control characters with the sign-in page, not a 500", async () => {
    const { finished } = await signInAs("maria@example.com", {
      tamper: (url) => new URL(`${url.pathname}?code=%0D%0Aset-cookie:%20x=1&state=%09&iss=%00`, url),
    });

    expect(finished.statusCode).toBe(302);
    expect(finished.headers.location).toBe(`/sign-in?error=oidc-failed&next=${encodeURIComponent(NEXT)}`);
    expect(finished.headers["set-cookie"]).not.toContain("x=1");
    expect(signedIn).toEqual([]);
  });

  it("marks its cookie Secure behind a trusted proxy that says the request came over HTTPS, with an http APP_URL", async () => {
    const proxied = Fastify({ logger: false, trustProxy: ["10.0.0.0/8"] });
    await proxied.register(cookie, { secret: "a test secret of the app server, long enough" });
    const oidc = createOidcSignIn({
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      redirectUri: `http://lookup.internal${OIDC_CALLBACK_PATH}`,
    });
    await proxied.register(oidcRoutes({ oidc, signIn: async () => "ok" }));
    const start = (proto: string, remoteAddress: string) =>
      proxied.inject({ url: "/api/sign-in/oidc", headers: { "x-forwarded-proto": proto }, remoteAddress });

    const [https, http, forged] = [
      await start("https", "10.0.0.2"),
      await start("http", "10.0.0.2"),
      await start("https", "192.0.2.1"),
    ];
    await proxied.close();

    expect(cookieOf(https, "oidc_pending")?.secure).toBe(true);
    expect(cookieOf(http, "oidc_pending")?.secure).toBeFalsy();
    expect(cookieOf(forged, "oidc_pending")?.secure).toBeFalsy();
  });

  it("sends the browser back to the sign-in page when the provider cannot be reached", async () => {
    const unreachable = Fastify({ logger: false });
    await unreachable.register(cookie, { secret: "a test secret of the app server, long enough" });
    const oidc = createOidcSignIn({
      issuer: "http://127.0.0.1:9",
      clientId: "x",
      clientSecret: "y",
      redirectUri: `${APP}${OIDC_CALLBACK_PATH}`,
    });
    await unreachable.register(oidcRoutes({ oidc, signIn: async () => "ok" }));

    const started = await unreachable.inject({ url: `/api/sign-in/oidc?next=${encodeURIComponent(NEXT)}` });
    await unreachable.close();

    expect(started.headers.location).toBe(`/sign-in?error=oidc-failed&next=${encodeURIComponent(NEXT)}`);
    expect(cookieOf(started, "oidc_pending")).toBeUndefined();
  });
});
