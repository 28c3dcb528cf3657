import type { FastifyInstance } from "fastify";
import type { LicenseRepo } from "../../store/license-repo.ts";
import { sendProblem } from "../../http/problem.ts";
import { accessibleState, STATE_UNAVAILABLE } from "../state-access.ts";

export function licenseRoute(app: FastifyInstance, licenses: LicenseRepo) {
  // A wildcard, so a number holding `/` (sent as %2F, or even raw) stays one number.
  // Not async: every request would pay for a promise it does not need.
  app.get("/v2/license/:state/*", (request, reply) => {
    const params = request.params as { state: string; "*": string };
    const state = accessibleState(params.state, request.caller, licenses);
    if (!state) {
      sendProblem(reply, "state-unavailable", STATE_UNAVAILABLE);
      return;
    }
    const doc = licenses.get(state, params["*"]);
    reply.type("application/json").send(`{"data":${doc ?? "null"}}`);
  });
}
