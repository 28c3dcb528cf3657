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
 * Where a server's log goes: stdout, one write per event-loop turn instead of one per line. Lines
 * are gathered in an array (pino writes a string per line) and handed to sonic-boom together, which
 * writes them in order, 4 KB or more at a time and at least every second, so a quiet server's lines
 * still show at once. (Handing it each line cost more than the request's own log work: it measures
 * its whole pending buffer on every write.) Whatever is pending is written when the process exits;
 * `flush` is for a clean close. A crash may lose the last second of lines, never a request.
 */
export function bufferedStdout() {
  // Written synchronously, as Node writes stdout to files and pipes on Linux: an async write still
  // in flight at exit let the last lines overtake it, or be lost.
  const destination = pino.destination({ dest: 1, sync: true, minLength: 4096 });
  let lines: string[] = [];
  const handOver = () => {
    if (lines.length === 0) return;
    destination.write(lines.join(""));
    lines = [];
  };
  const timer = setInterval(() => destination.flush(), 1000).unref();
  // pino flushes sonic-boom at exit; the lines not yet handed over are ours to save.
  const atExit = () => {
    handOver();
    destination.flushSync();
  };
  process.once("exit", atExit);
  return {
    stream: {
      write(line: string) {
        if (lines.length === 0) setImmediate(handOver);
        lines.push(line);
      },
    },
    flush: () => {
      clearInterval(timer);
      process.off("exit", atExit);
      atExit();
    },
  };
}
