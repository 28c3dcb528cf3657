import type { FastifyInstance } from "fastify";

/**
 * Once the server starts closing, every answer closes its connection. Node closes only the connections
 * idle at that moment: one whose request was in flight would stay open for the keep-alive timeout
 * (Fastify's is 72 s) and hold the close, and the process, until then.
 */
export function drainOnClose(app: FastifyInstance): void {
  let closing = false;
  app.addHook("preClose", (done) => {
    closing = true;
    done();
  });
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (closing) reply.header("connection", "close");
    done(null, payload);
  });
}
