import websocket from "@fastify/websocket";
import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { PROBLEM_CONTENT_TYPE, type Problem } from "../../src/contract/problem.ts";
import type { CachedAnswer as ServiceAnswer } from "./answer-cache.ts";

/**
 * `/api/socket`: the app server's /v2 forwarding over one WebSocket per page. Chromium spends ~4 ms on each fetch
 * of its own (a URL loader, its checks, the cache) against ~1 ms a message, and the app sends a search at every
 * keystroke (src/api/socket-transport.ts; bench:ui). A message is `{id, path}`, a GET of a /v2 path and query;
 * the answer `{id, status, headers, body}`, exactly what the same GET over HTTP would have been answered.
 */
export async function registerPageSocket(
  app: FastifyInstance,
  {
    forward,
    corsOrigins,
  }: {
    forward: (url: string, requestId: string, log: FastifyBaseLogger) => Promise<ServiceAnswer>;
    corsOrigins: readonly string[];
  },
) {
  await app.register(websocket, { options: { maxPayload: MAX_SOCKET_MESSAGE } });
  app.get(
    "/api/socket",
    {
      websocket: true,
      // A page of another site must not use the key through a clerk's browser: same origin (or CORS_ORIGINS) only.
      onRequest: (request, reply, done) => {
        const origin = request.headers.origin;
        if (origin === undefined || corsOrigins.includes(origin) || sameOrigin(origin, request.headers.host)) {
          return done();
        }
        void reply
          .code(403)
          .type(PROBLEM_CONTENT_TYPE)
          .send(problemBody(request.id, 403, "Forbidden", "Only this app's own pages may open its socket."));
      },
    },
    (socket, request) => {
      socket.on("message", (data, isBinary) => {
        const asked = !isBinary && Buffer.isBuffer(data) ? socketRequest(data.toString("utf8")) : null;
        if (!asked) {
          socket.close(1003, "each message is {id, path} with a /v2/ path");
          return;
        }
        const id = randomUUID();
        const started = performance.now();
        void forward(asked.path, id, request.log)
          .catch((error: unknown) => {
            request.log.error({ err: error, reqId: id }, "socket request failed");
            return {
              status: 502,
              headers: [["content-type", PROBLEM_CONTENT_TYPE]],
              body: Buffer.from(problemBody(id, 502, "Bad Gateway", "The request could not be forwarded.")),
            } satisfies ServiceAnswer;
          })
          .then((answer) => {
            request.log.info(
              {
                reqId: id,
                method: "GET",
                path: asked.path.split("?")[0],
                status: answer.status,
                ms: Math.round((performance.now() - started) * 100) / 100,
                via: "socket",
              },
              "request",
            );
            if (socket.readyState !== socket.OPEN) return;
            const headers = Object.fromEntries(answer.headers);
            socket.send(JSON.stringify({ id: asked.id, status: answer.status, headers, body: answer.body.toString() }));
          });
      });
    },
  );
}

/** The largest message a page may send on its socket: a path and query, never a body. */
const MAX_SOCKET_MESSAGE = 8 * 1024;

/** A page's message on its socket, `{id, path}`, or null when it is not one. */
function socketRequest(text: string): { id: number; path: string } | null {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof message !== "object" || message === null) return null;
  const { id, path } = message as { id?: unknown; path?: unknown };
  return Number.isSafeInteger(id) && typeof path === "string" && path.startsWith("/v2/")
    ? { id: id as number, path }
    : null;
}

function sameOrigin(origin: string, host: string | undefined): boolean {
  try {
    return host !== undefined && new URL(origin).host === host;
  } catch {
    return false;
  }
}

/** The app server's own problem: what it says when it cannot pass a request on. */
export function problemBody(requestId: string, status: number, title: string, detail: string): string {
  const body: Problem = { type: "about:blank", title, status, detail, request_id: requestId };
  return JSON.stringify(body);
}
