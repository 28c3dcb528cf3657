import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";
import type { Caller, KeyRepo } from "./key-repo.ts";
import { sendProblem } from "../http/problem.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The key's holder, once the key is checked: null on a public route asked without a live key. */
    caller: Caller | null;
  }
  interface FastifyContextConfig {
    /** Answered without a key: the API's own description, nothing of the data. */
    public?: boolean;
  }
}

const BEARER = /^Bearer ([^\s]+)$/;

/**
 * Runs before anything else on every request: without a live key, nothing but a public route is answered.
 * A key held in memory is checked at once; only a key memory cannot vouch for waits for the database.
 */
export function authenticate(keys: KeyRepo) {
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const header = request.headers.authorization;
    const token = typeof header === "string" ? BEARER.exec(header)?.[1] : undefined;
    const checked = token ? keys.verify(token) : null;
    if (!(checked instanceof Promise)) return admit(request, reply, done, checked);
    checked.then(
      (caller) => admit(request, reply, done, caller),
      (error: Error) => {
        if (request.routeOptions.config.public) return done();
        request.log.error({ err: error }, "API keys could not be read");
        sendProblem(reply, "service-unavailable", "API keys cannot be checked right now; try again in a few seconds.");
      },
    );
  };
}

function admit(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction, caller: Caller | null) {
  if (!caller) {
    // Asked only here, so a request with a live key pays nothing for public routes.
    if (request.routeOptions.config.public) return done();
    reply.header("www-authenticate", 'Bearer realm="license-lookup"');
    const detail = request.headers.authorization
      ? "The API key is not valid or has been revoked. Send a current key as `Authorization: Bearer <key>`."
      : "Send an API key as `Authorization: Bearer <key>`.";
    // Answered here: not calling done() ends the request before any route runs.
    sendProblem(reply, "unauthorized", detail);
    return;
  }
  request.caller = caller;
  done();
}
