import { LogController, type FastifyInstance } from "fastify";
import pino from "pino";

/** Replaces Fastify's two log lines per request with the one that `logOneLinePerRequest` writes. */
export const oneLineLogController = () => new LogController({ disableRequestLogging: true });

/**
 * One JSON line per request: request id, method, path, status, milliseconds. Never the headers
 * or the query string, so never a key and never a searched name.
 */
export function logOneLinePerRequest(app: FastifyInstance): void {
  app.addHook("onResponse", (request, reply, done) => {
    request.log.info(
      {
        method: request.method,
        path: request.url.split("?")[0],
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 100) / 100,
      },
      "request",
    );
    done();
  });
}

/**
 * Where a server's log goes: stdout through pino's own buffered destination, written 4 KB or more
 * at a time and at least every second, so a quiet server's lines still show at once. Writes are
 * synchronous, as Node writes stdout to files and pipes on Linux: an async write still in flight at
 * exit let the last lines overtake it, or be lost. Whatever is pending is written when the process
 * exits; `flush` is for a clean close. A crash may lose the last second of lines, never a request.
 */
export function bufferedStdout() {
  const destination = pino.destination({ dest: 1, sync: true, minLength: 4096 });
  const timer = setInterval(() => destination.flush(), 1000).unref();
  const atExit = () => destination.flushSync();
  process.once("exit", atExit);
  return {
    stream: destination,
    flush: () => {
      clearInterval(timer);
      process.off("exit", atExit);
      atExit();
    },
  };
}
