import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod/mini";
import {
  PASSWORD_API,
  SESSION_API,
  SIGN_IN_API,
  SIGN_OUT_API,
  USERS_API,
} from "../../../src/contract/account-paths.ts";
import {
  AddUserRequestSchema,
  SetPasswordRequestSchema,
  SetRoleRequestSchema,
  SignInRequestSchema,
  type Session,
  type User,
} from "../../../src/contract/accounts.ts";
import { sendProblem } from "../../http/problem.ts";
import type { Accounts } from "./accounts.ts";
import { beginSession } from "./sessions.ts";
import { allow, MAY } from "./signed-in.ts";

const REFUSED = "That email and password do not match an account. Check both, or ask an administrator for a new link.";

function tooMany(reply: FastifyReply, seconds: number) {
  const minutes = Math.ceil(seconds / 60);
  reply.header("retry-after", String(seconds));
  return sendProblem(
    reply,
    { status: 429, title: "Too many failed sign-ins" },
    `Too many failed sign-ins in a row: try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
  );
}

/** The session's own routes (who am I, sign in, sign out, set a password) and the administrators' user routes. */
export function accountsRoutes({ accounts, oidcName }: { accounts: Accounts; oidcName: string | null }) {
  // Fastify takes a plugin that returns a promise, or one that calls done: this one has nothing to await.
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app: FastifyInstance) => {
    /** The session just begun or resumed, as the app reads it. */
    const sessionOf = (request: FastifyRequest, user: User): Session => ({
      user,
      development: request.session.get("development") === true,
      expires_at: accounts.expiresAt(new Date().toISOString()),
    });

    app.get(SESSION_API, { preHandler: allow(MAY.read) }, (request) => ({ data: sessionOf(request, request.user!) }));

    app.get(SIGN_IN_API, () => ({
      data: { password: true, oidc: oidcName === null ? null : { name: oidcName } },
    }));

    app.post(SIGN_IN_API, async (request, reply) => {
      const parsed = z.safeParse(SignInRequestSchema, request.body);
      if (!parsed.success) return sendProblem(reply, 400, 'Send {"email": "…", "password": "…"}.');
      const result = await accounts.signInWithPassword(parsed.data.email, parsed.data.password, request.ip);
      if (result.outcome === "throttled") return tooMany(reply, result.seconds);
      if (result.outcome === "refused") {
        // Each failed try is in the server's log; the record of checks holds only the lockouts.
        request.log.info({ address: request.ip }, "sign-in refused");
        return sendProblem(reply, { status: 401, title: "Not signed in" }, REFUSED);
      }
      await beginSession(request, result.user);
      return { data: sessionOf(request, result.user) };
    });

    app.post(SIGN_OUT_API, async (request, reply) => {
      const user = request.user;
      await request.session.destroy();
      if (user) await accounts.audit({ action: "sign-out", user });
      return reply.code(204).send();
    });

    app.post(PASSWORD_API, async (request, reply) => {
      const parsed = z.safeParse(SetPasswordRequestSchema, request.body);
      if (!parsed.success) {
        return sendProblem(reply, 400, "A password needs at least 12 characters; send it with the link's token.");
      }
      const result = await accounts.usePasswordLink(parsed.data.token, parsed.data.password, request.ip);
      if (result.outcome === "throttled") return tooMany(reply, result.seconds);
      if (result.outcome === "refused") {
        request.log.info({ address: request.ip }, "password link refused");
        return sendProblem(
          reply,
          { status: 400, title: "Link not valid" },
          "This link has been used or has expired: ask an administrator for a new one.",
        );
      }
      await beginSession(request, result.user);
      return { data: sessionOf(request, result.user) };
    });

    const admin = { preHandler: allow(MAY.administer) };
    const userId = (request: FastifyRequest) => Number((request.params as { id: string }).id);

    app.get(USERS_API, admin, async () => ({ data: await accounts.store.list(accounts.idleSince()) }));

    app.post(USERS_API, admin, async (request, reply) => {
      const parsed = z.safeParse(AddUserRequestSchema, request.body);
      if (!parsed.success) {
        return sendProblem(reply, 400, 'Send {"email": "…", "role": "admin" | "member" | "auditor"}.');
      }
      const { email, role, name } = parsed.data;
      const { user, link } = await accounts.addUser(email, role, name ?? null, request.user);
      const entry = await accounts.store.listed(user.id, accounts.idleSince());
      return reply.code(201).send({ data: { user: entry, link } });
    });

    app.patch(`${USERS_API}/:id`, admin, async (request, reply) => {
      const parsed = z.safeParse(SetRoleRequestSchema, request.body);
      if (!parsed.success) return sendProblem(reply, 400, 'Send {"role": "admin" | "member" | "auditor"}.');
      const user = await accounts.setRole(userId(request), parsed.data.role, request.user);
      return { data: await accounts.store.listed(user.id, accounts.idleSince()) };
    });

    app.delete(`${USERS_API}/:id`, admin, async (request, reply) => {
      await accounts.removeUser(userId(request), request.user);
      return reply.code(204).send();
    });

    app.post(`${USERS_API}/:id/reset`, admin, async (request) => ({
      data: { link: await accounts.resetLink(userId(request), request.user) },
    }));

    app.delete(`${USERS_API}/:id/sessions`, admin, async (request, reply) => {
      await accounts.endSessions(userId(request), request.user);
      return reply.code(204).send();
    });
  };
}
