import type { FastifyReply, FastifyRequest } from "fastify";
import type { Role, User } from "../../../src/contract/accounts.ts";
import { sendProblem } from "../../http/problem.ts";

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

/** Not HTTP's "Unauthorized": what is missing is a session, and the person can start one. */
export const SIGN_IN_REQUIRED = { status: 401, title: "Sign-in required" };

/** A preHandler that lets through only a signed-in user whose role is one of `roles`. */
export function allow(roles: readonly Role[]) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.user) return sendProblem(reply, SIGN_IN_REQUIRED, "Sign in to License Lookup first.");
    if (!roles.includes(request.user.role)) {
      return sendProblem(reply, 403, `Your role (${request.user.role}) may not do this; ask an administrator.`);
    }
  };
}
