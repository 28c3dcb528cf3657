import { randomBytes } from "node:crypto";
import cookie from "@fastify/cookie";
import session from "@fastify/session";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { SET_PASSWORD_PAGE, SIGN_IN_PAGE } from "../../../src/contract/account-paths.ts";
import { type User } from "../../../src/contract/accounts.ts";
import { sendProblem } from "../../http/problem.ts";
import { refuseOtherSites } from "../../http/same-origin.ts";
import type { Accounts } from "./accounts.ts";
import { SIGN_IN_REQUIRED } from "./signed-in.ts";

declare module "fastify" {
  interface Session {
    userId?: number;
    /** Started by `npm start`'s automatic sign-in. */
    development?: boolean;
  }
}

export interface SessionOptions {
  accounts: Accounts;
  /** Signs the cookie; at least 32 characters. From SESSION_SECRET, else kept in the app's database. */
  secret?: string;
  /** Cookies ignore the port: two apps on one host name need names of their own. */
  cookieName?: string;
  /** Signs every visitor in as the local administrator: `npm start` only, never production. */
  development?: boolean;
}

export interface SignInOptions extends SessionOptions {
  /** The identity provider's name on the sign-in page; null when none is set up. */
  oidcName?: string | null;
  /** The identity provider's routes, registered beside the others. */
  oidcRoutes?: ((app: FastifyInstance) => Promise<void>) | null;
}

/** A session's last use is written at most this often: not one write per keystroke. */
const SEEN_EVERY_MS = 60_000;

// Open without a session: the sign-in page and what it needs, and the routes that sign in.
const PUBLIC_PAGES = new Set([SIGN_IN_PAGE, SET_PASSWORD_PAGE]);
const PUBLIC_API = /^\/api\/(sign-in(\/oidc(\/callback)?)?|password)$/;

/**
 * Sessions kept server-side in the app's database (through @fastify/session): an HttpOnly, SameSite=Lax cookie,
 * Secure when `https` (APP_URL is https) or the request came over HTTPS (as a trusted proxy says), ending after
 * 12 hours idle or at sign-out. Every other request needs one: `/v2` and `/api` answer
 * 401, a page goes to the sign-in page and comes back after.
 */
export async function registerSessions(
  app: FastifyInstance,
  options: SessionOptions,
  { https = false }: { https?: boolean } = {},
) {
  const { accounts, development = false } = options;
  const { store } = accounts;
  const secret = options.secret ?? (await keptSecret(accounts));
  if (secret.length < 32) throw new Error("SESSION_SECRET must be at least 32 characters");
  const cookieName = options.cookieName ?? "lls_session";

  await app.register(cookie, { secret });
  await app.register(session, {
    secret,
    cookieName,
    saveUninitialized: false,
    // The last use is kept by the store below, at most once a minute, rather than a write on every answer.
    rolling: false,
    cookie: { httpOnly: true, sameSite: "lax", secure: "auto", path: "/" },
    store: {
      set(id, data, done) {
        const userId = (data as { userId?: number }).userId ?? null;
        store.session.put(id, userId, JSON.stringify(data)).then(() => done(), done);
      },
      get(id, done) {
        const read = async () => {
          const row = await store.session.get(id, accounts.idleSince());
          if (row && accounts.now().getTime() - Date.parse(row.lastSeenAt) > SEEN_EVERY_MS) {
            await store.session.seen(id);
          }
          return row ? (JSON.parse(row.data) as Parameters<typeof done>[1]) : null;
        };
        read().then((session) => done(null, session), done);
      },
      destroy(id, done) {
        store.session.drop(id).then(() => done(), done);
      },
    },
  });
  app.decorateRequest("user", null);
  if (https) {
    // APP_URL is https, so browsers reach the app through it whatever this hop was. "auto" marks the cookie Secure
    // only when Fastify sees https (itself, or a TRUST_PROXY proxy's X-Forwarded-Proto); and @fastify/session's
    // `secure: true` keeps no session at all for a request it sees as http: the flag is added to its cookie here.
    app.addHook("onSend", async (_request, reply, payload) => {
      markSecure(reply, cookieName);
      return payload;
    });
  }

  // Whoever is signed in: another site's page would be sending this browser's cookie.
  app.addHook(
    "onRequest",
    refuseOtherSites("This request came from another site; License Lookup only takes changes from its own pages."),
  );
  app.addHook("onRequest", async (request, reply) => {
    const userId = request.session.get("userId");
    request.user = userId === undefined ? null : await accounts.store.user(userId);
    if (!request.user && development) {
      request.user = await accounts.developmentAdmin();
      request.session.set("userId", request.user.id);
      request.session.set("development", true);
    }
    if (request.user) return;
    const path = request.url.split("?", 1)[0]!;
    if (PUBLIC_API.test(path)) return;
    if (path.startsWith("/v2/") || path === "/v2" || path.startsWith("/api/")) {
      return sendProblem(
        reply,
        SIGN_IN_REQUIRED,
        "Sign in to License Lookup first: your session has ended or you have not signed in.",
      );
    }
    if (request.method === "GET" && request.headers.accept?.includes("text/html") && !PUBLIC_PAGES.has(path)) {
      return toSignIn(request, reply);
    }
  });
}

/** Adds Secure to the `name` cookie this answer sets (@fastify/session's onSend, registered before, has set it). */
function markSecure(reply: FastifyReply, name: string) {
  const header = reply.getHeader("set-cookie");
  if (header === undefined) return;
  const cookies = (Array.isArray(header) ? header : [String(header)]).map((set) =>
    set.startsWith(`${name}=`) && !/;\s*secure\s*(;|$)/i.test(set) ? `${set}; Secure` : set,
  );
  reply.removeHeader("set-cookie");
  reply.header("set-cookie", cookies);
}

/** Signs the user in on this request's session. */
export async function beginSession(request: FastifyRequest, user: User): Promise<void> {
  // A new id at every sign-in: an id planted before it (session fixation) is worth nothing after.
  await request.session.regenerate();
  request.session.set("userId", user.id);
  request.user = user;
}

/** A page asked for without a session: the sign-in page, which returns to it after. */
function toSignIn(request: FastifyRequest, reply: FastifyReply) {
  return reply.redirect(`${SIGN_IN_PAGE}?${new URLSearchParams({ next: request.url })}`, 303);
}

/**
 * A secret made once and kept in the app's database, so that restarts keep everyone signed in. On PostgreSQL
 * every app node shares it (the first to start makes it), so a cookie signed by one node is good on all.
 */
function keptSecret(accounts: Accounts): Promise<string> {
  return accounts.store.keptMeta("session_secret", randomBytes(32).toString("base64url"));
}
