import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { describeLicenseListError, LicenseListQuerySchema } from "../../../src/contract/license-list-query.ts";
import type { LicenseRepo } from "../../store/license-repo.ts";
import { sendProblem } from "../../http/problem.ts";
import { accessibleState, STATE_UNAVAILABLE } from "../state-access.ts";

/**
 * Our addition, for checking a list: the licenses, or their provenance, of up to MAX_BATCH numbers of
 * one state in one request (`?license=A&license=B`), one entry per number in the order given, null
 * where the state holds no such number. Each counts once against the key's rate limit.
 */
export function licenseListRoutes(app: FastifyInstance, licenses: LicenseRepo) {
  // Not async: every request would pay for a promise it does not need.
  app.get("/v2/licenses/:state", (request, reply) => {
    const asked = readList(request, reply, licenses);
    if (!asked) return;
    // The stored JSON spliced in, as /v2/license does: never parsed to be written again.
    const docs = licenses.getMany(asked.state, asked.numbers);
    reply.type("application/json").send(`{"data":[${docs.map((doc) => doc ?? "null").join(",")}]}`);
  });

  app.get("/v2/provenance/:state", (request, reply) => {
    const asked = readList(request, reply, licenses);
    if (!asked) return;
    reply.send({ data: licenses.provenanceMany(asked.state, asked.numbers) });
  });
}

/** The state and the numbers asked for, or null once a problem has been sent. */
function readList(
  request: FastifyRequest,
  reply: FastifyReply,
  licenses: LicenseRepo,
): { state: string; numbers: string[] } | null {
  const state = accessibleState((request.params as { state: string }).state, request.caller, licenses);
  if (!state) {
    sendProblem(reply, "state-unavailable", STATE_UNAVAILABLE);
    return null;
  }
  // One `license` arrives as a string, several as an array.
  const given = (request.query as Record<string, string | string[] | undefined>).license;
  const parsed = LicenseListQuerySchema.safeParse({ license: given === undefined ? [] : [given].flat() });
  if (!parsed.success) {
    sendProblem(reply, "bad-request", describeLicenseListError(parsed.error));
    return null;
  }
  return { state, numbers: parsed.data.license };
}
