import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import { randomUUID } from "node:crypto";
import { authenticate } from "./auth.ts";
import { answerError, answerFrameworkError, answerNotFound, sendProblem } from "../http/problem.ts";
import { buildOpenApiDocument } from "./openapi/openapi-document.ts";
import { docsRoute } from "./routes/docs-route.ts";
import { historyRoute } from "./routes/history-route.ts";
import { licenseListRoutes } from "./routes/license-list-routes.ts";
import { licenseRoute } from "./routes/license-route.ts";
import { provenanceRoute } from "./routes/provenance-route.ts";
import { searchRoute } from "./routes/search-route.ts";
import { statesRoute } from "./routes/states-route.ts";
import { logOneLinePerRequest, oneLineLogController } from "../http/request-log.ts";
import { DEFAULT_RATE_LIMIT, createRateLimiter, type RateLimitOptions } from "./rate-limit.ts";
import { healthRoutes, type Readiness } from "../http/health-routes.ts";
import type { KeyRepo } from "./key-repo.ts";
import type { LicenseRepo } from "../store/license-repo.ts";
import type { ServedSnapshot } from "../../src/contract/envelopes.ts";
import { nameServedSnapshot } from "./snapshot-header.ts";

export interface AppOptions {
  licenses: LicenseRepo;
  keys: KeyRepo;
  logger?: FastifyServerOptions["logger"];
  /** Per-key rate limit; false turns it off (benchmarks measure the service, not the limiter). */
  rateLimit?: RateLimitOptions | false;
  /** What else keeps this node from serving (the license data not loaded, PostgreSQL away): /readyz's reasons. */
  readiness?: Readiness;
  /** On a node following published snapshots: the one served now, named on every answer and by /v2/states. */
  snapshot?: () => ServedSnapshot | null;
}

/** Builds the v2 service over a store. Never listens: main.ts does, tests use inject. */
export function buildApp({
  licenses,
  keys,
  logger = false,
  rateLimit = DEFAULT_RATE_LIMIT,
  readiness = () => Promise.resolve([]),
  snapshot,
}: AppOptions) {
  const app = Fastify({
    logger,
    // Our own ids: a client-sent id is not trusted into the logs.
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    logController: oneLineLogController(),
    frameworkErrors: answerFrameworkError,
  });
  app.setErrorHandler(answerError);

  const isKnownPath = trackKnownPaths(app);

  // One hook, taking a callback rather than being async: each hook and promise costs every request.
  const auth = authenticate(keys);
  // Declared before any request exists, so every request object has the same shape.
  app.decorateRequest("caller", null);
  // Before the key is checked: a 401 names the snapshot too.
  if (snapshot) nameServedSnapshot(app, snapshot);
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    auth(request, reply, done);
  });
  logOneLinePerRequest(app);

  const limiter = rateLimit ? createRateLimiter(rateLimit, app.log) : null;
  if (limiter) {
    // A node starts counting in Redis, unless Redis stays away (it then counts alone, and says so).
    app.addHook("onReady", async () => void (await limiter.connected()));
    app.addHook("onClose", () => limiter.close());
  }
  // Outside the limited plugin: a balancer's checks never count against anyone.
  healthRoutes(app, async () => [...(await readiness()), ...((await limiter?.readiness()) ?? [])]);

  // Routes in a plugin of their own, so the rate limiter registered before them covers them.
  app.register(async (api) => {
    if (limiter) await limiter.register(api);
    searchRoute(api, licenses);
    licenseRoute(api, licenses);
    statesRoute(api, licenses, snapshot);
    provenanceRoute(api, licenses);
    historyRoute(api, licenses);
    licenseListRoutes(api, licenses);
  });
  const document = buildOpenApiDocument();
  app.register((docs) => docsRoute(docs, document));

  app.setNotFoundHandler((request, reply) => {
    // GET reaches here too when a route hands a request on (a docs file that does not exist).
    if (request.method !== "GET" && request.method !== "HEAD" && isKnownPath(request.url)) {
      reply.header("allow", "GET, HEAD");
      return sendProblem(reply, "method-not-allowed", `${request.method} is not supported here; use GET or HEAD.`);
    }
    return answerNotFound(request, reply);
  });

  return app;
}

/**
 * Whether some route answers a URL's path, whatever the method: telling "wrong method" (405) from
 * "no such thing" (404). Made from the routes as they are registered, so a new route needs no entry.
 */
function trackKnownPaths(app: FastifyInstance): (url: string) => boolean {
  const patterns = new Set<string>();
  app.addHook("onRoute", (route) => void patterns.add(route.url));
  let known: RegExp | undefined;
  app.addHook("onReady", (done) => {
    known = new RegExp(`^(?:${[...patterns].map(patternSource).join("|")})(?:\\?|$)`);
    done();
  });
  return (url) => known?.test(url) ?? false;
}

/** A route's path (`/v2/license/:state/*`) as a regular expression over URLs. */
function patternSource(pattern: string): string {
  return pattern
    .split(/(:\w+|\*)/)
    .map((part) =>
      part === "*" ? "[^?]*" : part.startsWith(":") ? "[^/?]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
    )
    .join("");
}
