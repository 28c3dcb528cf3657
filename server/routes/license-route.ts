import type { FastifyInstance } from "fastify";
import type { LicenseRepo } from "../store/license-repo.ts";
import { sendProblem } from "../problem.ts";
import { accessibleState, STATE_UNAVAILABLE } from "../state-access.ts";

export function licenseRoute(app: FastifyInstance, licenses: LicenseRepo) {
  // A wildcard, so a number holding `/` (sent as %2F, or even raw) stays one number.
  app.get("/v2/license/:state/*", async (request, reply) => {
    const params = request.params as { state: string; "*": string };
    const state = accessibleState(params.state, request.caller, licenses);
    if (!state) return sendProblem(reply, "state-unavailable", STATE_UNAVAILABLE);
    const doc = licenses.get(state, params["*"]);
    return reply.type("application/json").send(`{"data":${doc ?? "null"}}`);
  });
}
