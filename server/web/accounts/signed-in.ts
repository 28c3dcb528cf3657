import type { FastifyReply, FastifyRequest } from "fastify";
import type { Role, User } from "../../../src/contract/accounts.ts";
import { PROBLEM_CONTENT_TYPE, type Problem } from "../../../src/contract/problem.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** Who is signed in on this request; null before the session is read or without one. */
    user: User | null;
  }
}

/** What each role may do: checked on the server for every route, whatever the page shows. */
export const MAY = {
  /** Search, open, verify: every role reads licenses. */
  read: ["admin", "member", "auditor"],
  /** Add to or remove from the watchlist, run a check, mark changes seen, record checks. */
  act: ["admin", "member"],
  /** Every person's checks, not only one's own. */
  audit: ["admin", "auditor"],
  /** Users, sessions and the watchlist's alerts. */
  administer: ["admin"],
} as const satisfies Record<string, readonly Role[]>;

export function problemReply(reply: FastifyReply, status: 401 | 403, detail: string) {
  const body: Problem = {
    type: "about:blank",
    title: status === 401 ? "Sign-in required" : "Forbidden",
    status,
    detail,
    request_id: reply.request.id,
  };
  return reply.code(status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(body));
}

/** A preHandler that lets through only a signed-in user whose role is one of `roles`. */
export function allow(roles: readonly Role[]) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.user) return problemReply(reply, 401, "Sign in to License Lookup first.");
    if (!roles.includes(request.user.role)) {
      return problemReply(reply, 403, `Your role (${request.user.role}) may not do this; ask an administrator.`);
    }
  };
}
