import { LogController, type FastifyInstance } from "fastify";

/** Replaces Fastify's two log lines per request with the one that `logOneLinePerRequest` writes. */
export const oneLineLogController = () => new LogController({ disableRequestLogging: true });

/**
 * One JSON line per request: request id, method, path, status, milliseconds. Never the headers
 * or the query string, so never a key and never a searched name.
 */
export function logOneLinePerRequest(app: FastifyInstance): void {
  app.addHook("onResponse", async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        path: request.url.split("?")[0],
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 100) / 100,
      },
      "request",
    );
  });
}
