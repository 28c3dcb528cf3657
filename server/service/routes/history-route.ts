import type { FastifyInstance } from "fastify";
import type { LicenseRepo } from "../../store/license-repo.ts";
import { sendProblem } from "../../http/problem.ts";
import { accessibleState, STATE_UNAVAILABLE } from "../state-access.ts";

/**
 * Our addition: what the state's files have said of one license over time, newest first, those no
 * longer listed included. Beside the license, never in it: the license object stays the contract's.
 */
export function historyRoute(app: FastifyInstance, licenses: LicenseRepo) {
  // A wildcard, as on /v2/license: a number holding `/` stays one number.
  app.get("/v2/history/:state/*", (request, reply) => {
    const params = request.params as { state: string; "*": string };
    const state = accessibleState(params.state, request.caller, licenses);
    if (!state) {
      sendProblem(reply, "state-unavailable", STATE_UNAVAILABLE);
      return;
    }
    reply.send({ data: licenses.history(state, params["*"]) });
  });
}
