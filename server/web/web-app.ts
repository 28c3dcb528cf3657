import { randomUUID } from "node:crypto";
import cors from "@fastify/cors";
import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { Pool } from "undici";
import { healthRoutes } from "../http/health-routes.ts";
import { answerClientError, answerError, answerFrameworkError, answerNotFound, sendProblem } from "../http/problem.ts";
import { logOneLinePerRequest, oneLineLogController } from "../http/request-log.ts";
import { accountsRoutes } from "./accounts/accounts-routes.ts";
import { registerSessions, type SignInOptions } from "./accounts/sessions.ts";
import { allow, MAY } from "./accounts/signed-in.ts";
import { createAnswerCache, type CachedAnswer } from "./answer-cache.ts";
import { pagePreloads } from "./page-preloads.ts";
import { watchRoutes } from "./watchlist/watch-routes.ts";
import type { WatchlistService } from "./watchlist/watchlist.ts";

export interface WebAppOptions {
  /** The built app (`npm run build`'s dist/); none beside Vite's dev server, which serves the pages itself. */
  distDir?: string | null;
  /** Where `/v2` goes, without the `/v2`. */
  apiBaseUrl: string;
  /** Added to every forwarded request here, so no browser ever holds it. */
  apiKey: string;
  /** How long the service may take over a whole answer before the app gets a 504. */
  upstreamTimeoutMs?: number;
  /** How long a 200 of the license routes is reused for the same path and query; 0: never. */
  cacheTtlMs?: number;
  /** Origins whose pages may read `/v2` answers; none unless configured. */
  corsOrigins?: readonly string[];
  /** The team's watchlist, served under /api/watchlist and closed with the app; none when absent. */
  watchlist?: WatchlistService | null;
  /** Sign-in: every route but the sign-in page's needs a session. Only tests of the forwarder go without. */
  signIn?: SignInOptions | null;
  /** The record of checks: its routes, and what a clerk marking watchlist changes seen was shown. */
  checks?: {
    routes: (app: FastifyInstance) => Promise<void>;
    onWatchSeen: NonNullable<Parameters<typeof watchRoutes>[1]>["onSeen"];
  } | null;
  /**
   * TRUST_PROXY: the proxies (addresses, CIDR ranges) whose X-Forwarded-For names the client (to the sign-in throttle
   * and the record) and whose X-Forwarded-Proto says whether it came over HTTPS; none: the peer is the client.
   */
  trustProxy?: readonly string[];
  /** APP_URL is https: the session cookie is Secure and every answer carries HSTS, whatever the hop before said. */
  https?: boolean;
  logger?: boolean;
  /** What keeps this node from serving (its database unreachable): /readyz's reasons; empty when ready. */
  readiness?: () => Promise<string[]>;
}

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 10_000;
export const DEFAULT_CACHE_TTL_MS = 60_000;
// Bounded by count and by bytes: a list of 100 licenses is the largest answer, a search the commonest.
const CACHE_LIMITS = { maxEntries: 2_000, maxBytes: 32 * 2 ** 20 };
// The license routes: records change only with an import. Not /v2/states (a key's scope) nor the history.
const CACHEABLE = /^\/v2\/(search$|search-with-provenance$|license\/|licenses\/|provenance\/)/;

// What a browser needs from the service's answer; everything else stays behind.
const FORWARDED_HEADERS = ["content-type", "cache-control", "retry-after", "www-authenticate", "x-request-id"];

// The built app loads only its own files: no inline script or style, no plugins, never inside a frame.
// Four fixed headers, not @fastify/helmet: its per-request middleware chain slows every proxied answer.
const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
};

// A year, the usual minimum for browsers' preload lists; subdomains are not the app's to speak for.
const HSTS = "max-age=31536000";

/** The production app: the built files, any app path answered with index.html, and `/v2` forwarded with the key. */
export async function buildWebApp({
  distDir,
  apiBaseUrl,
  apiKey,
  upstreamTimeoutMs = DEFAULT_UPSTREAM_TIMEOUT_MS,
  cacheTtlMs = DEFAULT_CACHE_TTL_MS,
  corsOrigins = [],
  watchlist = null,
  signIn = null,
  checks = null,
  trustProxy = [],
  https = false,
  logger = false,
  readiness = () => Promise.resolve([]),
}: WebAppOptions) {
  // Browsers heed HSTS only over HTTPS: from then on they never try this host over plain HTTP.
  const headersFor = (request: FastifyRequest) =>
    https || request.protocol === "https"
      ? { ...SECURITY_HEADERS, "strict-transport-security": HSTS }
      : SECURITY_HEADERS;
  const app = Fastify({
    logger,
    trustProxy: trustProxy.length ? [...trustProxy] : false,
    genReqId: () => randomUUID(),
    logController: oneLineLogController(),
    // Fastify answers a URL it cannot route before any hook, onSend's security headers included.
    frameworkErrors: (error, request, reply) =>
      answerFrameworkError(error, request, reply.headers(headersFor(request))),
    // Before even that: a request line or header Node's parser refuses.
    clientErrorHandler: answerClientError,
  });
  app.setErrorHandler(answerError);
  logOneLinePerRequest(app);
  const base = apiBaseUrl.replace(/\/+$/, "");
  const upstream = new URL(`${base}/v2/`);
  // undici's request on kept-alive connections rather than fetch: the proxy is in every keystroke's round trip.
  const pool = new Pool(upstream.origin);
  app.addHook("onClose", () => pool.close());
  // One app server presents one key, so an answer is the same whichever clerk asked.
  const cache = cacheTtlMs > 0 ? createAnswerCache({ ttlMs: cacheTtlMs, ...CACHE_LIMITS }) : null;

  // onSend sees every answer: pages, files, forwarded ones, 404s and errors alike.
  app.addHook("onSend", async (request, reply, payload) => {
    reply.headers(headersFor(request));
    return payload;
  });
  if (corsOrigins.length) {
    await app.register(cors, {
      origin: [...corsOrigins],
      methods: ["GET", "HEAD"],
      exposedHeaders: ["retry-after", "x-request-id"],
    });
  }

  if (signIn) {
    await registerSessions(app, signIn, { https });
    await app.register(accountsRoutes({ accounts: signIn.accounts, oidcName: signIn.oidcName ?? null }));
    if (signIn.oidcRoutes) await app.register(signIn.oidcRoutes);
  }
  if (checks) await app.register(checks.routes);
  // For a load balancer, and needing no session: the session hook guards only /api, /v2 and the pages.
  healthRoutes(app, readiness);
  const page = distDir ? await servePages(app, distDir) : null;
  app.setNotFoundHandler((request, reply) => {
    // A pasted link such as /license/ny/0012345 is the app's to answer; a missing file is not.
    if (page && request.method === "GET" && request.headers.accept?.includes("text/html")) return page(request, reply);
    return answerNotFound(request, reply);
  });
  // Every role reads licenses; without sign-in (the forwarder's own tests) there is no one to check.
  app.get("/v2/*", { preHandler: signIn ? allow(MAY.read) : [] }, async (request, reply) => forward(request, reply));
  if (watchlist) {
    await app.register(async (scope) => {
      // An auditor reads the watchlist; only a member or an administrator changes it.
      if (signIn) {
        const read = allow(MAY.read);
        const act = allow(MAY.act);
        scope.addHook("preHandler", (request, reply) =>
          request.method === "GET" || request.method === "HEAD" ? read(request, reply) : act(request, reply),
        );
      }
      await scope.register(watchRoutes(watchlist, { onSeen: checks?.onWatchSeen }));
    });
    app.addHook("onClose", () => watchlist.close());
  }

  async function forward(request: FastifyRequest, reply: FastifyReply) {
    // URL parsing resolves `..` and `%2e%2e`: the key must only ever go to the service's /v2.
    const target = new URL(base + request.url);
    if (target.origin !== upstream.origin || !target.pathname.startsWith(upstream.pathname)) {
      return sendProblem(reply, 404, "There is no such path.");
    }
    const cacheKey = cache && CACHEABLE.test(target.pathname) ? target.pathname + target.search : null;
    const hit = cacheKey === null ? undefined : cache?.get(cacheKey);
    if (hit) {
      for (const [name, value] of hit.answer.headers) reply.header(name, value);
      return reply.code(hit.answer.status).header("age", String(hit.ageSeconds)).send(hit.answer.body);
    }
    // The bound covers the body too: a service that sends headers then stalls is as slow as one that never answers.
    const signal = AbortSignal.timeout(upstreamTimeoutMs);
    let answer: ServiceAnswer;
    try {
      answer = await askService(pool, target, apiKey, signal);
    } catch (error) {
      if (signal.aborted) {
        request.log.error({ err: error, timeoutMs: upstreamTimeoutMs }, "license service timed out");
        const seconds = upstreamTimeoutMs / 1000;
        return sendProblem(
          reply,
          504,
          `The license service did not answer within ${seconds} second${seconds === 1 ? "" : "s"}.`,
        );
      }
      request.log.error({ err: error }, "license service unreachable");
      return sendProblem(reply, 502, "The license service could not be reached.");
    }
    const { status, headers, body } = answer;
    // Whatever echoes the request back (a misconfigured LLS_BASE_URL) must not hand the key to a browser.
    if (body.includes(apiKey) || headers.some(([, value]) => value.includes(apiKey))) {
      request.log.error({ status }, "license service answer held the API key: withheld");
      return sendProblem(reply, 502, "The license service sent an answer that cannot be passed on.");
    }
    if (cacheKey !== null) cache?.set(cacheKey, answer);
    for (const [name, value] of headers) reply.header(name, value);
    return reply.code(status).send(body);
  }

  return app;
}

/** The built files; and how to answer any app path: index.html, its chunks preloaded. */
async function servePages(app: FastifyInstance, distDir: string) {
  await app.register(fastifyStatic, {
    root: distDir,
    index: false,
    // The build writes each script, sheet and page beside itself as .br and .gz (vite.config.ts): sent as they
    // are, to a browser that accepts them, so no request spends CPU on compressing. /v2 answers go uncompressed.
    preCompressed: true,
    // Vite names built assets by content hash: they never change under the same name. The icon is kept a day:
    // Chromium asks for it again at every change of the URL, so each keystroke of a search cost a request.
    setHeaders: (reply, path) => {
      const file = path.replace(/\.(br|gz)$/, "");
      reply.header(
        "cache-control",
        file.includes("/assets/")
          ? "public, max-age=31536000, immutable"
          : file.endsWith(".html")
            ? "no-cache"
            : "public, max-age=86400",
      );
    },
  });

  const preloads = pagePreloads(distDir);
  const page = (request: FastifyRequest, reply: FastifyReply) => {
    const link = preloads(request.url.split("?", 1)[0]!);
    if (link) reply.header("link", link);
    return reply.header("cache-control", "no-cache").sendFile("index.html");
  };
  app.get("/", (request, reply) => page(request, reply));
  return page;
}

/** Its headers only those a browser needs (FORWARDED_HEADERS). */
type ServiceAnswer = CachedAnswer;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The service's whole answer, or a rejection once the signal aborts. */
async function askService(pool: Pool, target: URL, apiKey: string, signal: AbortSignal): Promise<ServiceAnswer> {
  // Only the server's key goes upstream: never the browser's own Authorization or cookies.
  const answer = await pool.request({
    method: "GET",
    path: target.pathname + target.search,
    headers: { accept: "application/json", authorization: `Bearer ${apiKey}` },
    signal,
  });
  // A redirect would carry the key somewhere else: undici does not follow it, and it is not passed on either.
  if (REDIRECTS.has(answer.statusCode)) {
    await answer.body.dump();
    throw new Error(`the license service answered ${answer.statusCode}, a redirect`);
  }
  const headers = FORWARDED_HEADERS.flatMap((name): [string, string][] => {
    const value = answer.headers[name];
    return value === undefined ? [] : [[name, String(value)]];
  });
  return { status: answer.statusCode, headers, body: Buffer.from(await answer.body.arrayBuffer()) };
}
