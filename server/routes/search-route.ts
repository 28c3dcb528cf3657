import type { FastifyInstance } from "fastify";
import { describeSearchError, SearchParamsSchema } from "../../src/contract/search-query.ts";
import type { LicenseRepo } from "../store/license-repo.ts";
import { sendProblem } from "../problem.ts";
import { accessibleState, STATE_UNAVAILABLE } from "../state-access.ts";

export function searchRoute(app: FastifyInstance, licenses: LicenseRepo) {
  app.get("/v2/search", async (request, reply) => {
    const query = request.query as Record<string, string | string[]>;
    const repeated = ["state", "name", "address"].find((key) => Array.isArray(query[key]));
    if (repeated) return sendProblem(reply, "bad-request", `give ${repeated} once, not several times`);
    const rawState = query.state as string | undefined;
    if (rawState === undefined || rawState.trim() === "") {
      return sendProblem(reply, "bad-request", "state is required: a two-letter state code such as ny");
    }
    const state = accessibleState(rawState.trim(), request.caller, licenses);
    if (!state) return sendProblem(reply, "state-unavailable", STATE_UNAVAILABLE);

    const parsed = SearchParamsSchema.safeParse({ state, name: query.name, address: query.address });
    if (!parsed.success) return sendProblem(reply, "bad-request", describeSearchError(parsed.error));
    const docs = licenses.search(parsed.data);
    return reply.type("application/json").send(`{"data":[${docs.join(",")}]}`);
  });
}
