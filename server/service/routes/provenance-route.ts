import type { FastifyInstance } from "fastify";
import type { LicenseRepo } from "../../store/license-repo.ts";
import { sendProblem } from "../../http/problem.ts";
import { accessibleState, STATE_UNAVAILABLE } from "../state-access.ts";

/**
 * Our addition: where the license with exactly this number comes from (the agency's file) and the
 * date that source says it was true on, with each field an older file gives where that one has no
 * column for it (`fields`). Beside the license, never in it: the license object stays the contract's.
 */
export function provenanceRoute(app: FastifyInstance, licenses: LicenseRepo) {
  // A wildcard, as on /v2/license: a number holding `/` stays one number.
  app.get("/v2/provenance/:state/*", (request, reply) => {
    const params = request.params as { state: string; "*": string };
    const state = accessibleState(params.state, request.caller, licenses);
    if (!state) {
      sendProblem(reply, "state-unavailable", STATE_UNAVAILABLE);
      return;
    }
    reply.send({ data: licenses.provenance(state, params["*"]) });
  });
}
