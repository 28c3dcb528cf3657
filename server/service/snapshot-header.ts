import type { FastifyInstance } from "fastify";
import type { ServedSnapshot } from "../../src/contract/envelopes.ts";
import { DOCS_PATH } from "./routes/docs-route.ts";

/** Names, on every answer of a node following snapshots, the snapshot it was read from: 12 hex digits of its SHA-256. */
export const SNAPSHOT_HEADER = "x-lls-snapshot";

/**
 * Sets the header on every answer, and once more in the same step as each route's handler, whose reads it
 * then names exactly: a swap between the request's arrival and its handler (an async hook, a rate-limit store)
 * would otherwise name the old snapshot over the new one's data. Handlers must be synchronous for that (and for
 * the swap itself): an async one is refused when it is registered.
 */
export function nameServedSnapshot(app: FastifyInstance, served: () => ServedSnapshot | null): void {
  app.addHook("onRequest", (_request, reply, done) => {
    const snapshot = served();
    if (snapshot) reply.header(SNAPSHOT_HEADER, snapshot.sha256.slice(0, 12));
    done();
  });
  app.addHook("onRoute", (route) => {
    if (!route.url.startsWith("/v2/") || route.url.startsWith(DOCS_PATH)) return;
    const handler = route.handler;
    if (handler.constructor.name === "AsyncFunction") {
      throw new Error(
        `${String(route.method)} ${route.url}: a route reading the licenses must be synchronous, or a snapshot swap could come between its reads`,
      );
    }
    route.handler = function (request, reply) {
      const snapshot = served();
      if (snapshot) reply.header(SNAPSHOT_HEADER, snapshot.sha256.slice(0, 12));
      return handler.call(this, request, reply);
    };
  });
}
