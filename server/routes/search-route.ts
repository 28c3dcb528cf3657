import type { FastifyInstance } from "fastify";
import { describeSearchError, SearchParamsSchema } from "../../src/contract/search-query.ts";
import type { LicenseRepo } from "../store/license-repo.ts";
import { sendProblem, type ProblemKind } from "../problem.ts";
import { accessibleState, STATE_UNAVAILABLE } from "../state-access.ts";

export function searchRoute(app: FastifyInstance, licenses: LicenseRepo) {
  // Not async: every request would pay for a promise it does not need.
  app.get("/v2/search", (request, reply) => {
    const problem = (kind: ProblemKind, detail: string) => void sendProblem(reply, kind, detail);
    const query = request.query as Record<string, string | string[]>;
    const repeated = ["state", "name", "address"].find((key) => Array.isArray(query[key]));
    if (repeated) return problem("bad-request", `give ${repeated} once, not several times`);
    const rawState = query.state as string | undefined;
    if (rawState === undefined || rawState.trim() === "") {
      return problem("bad-request", "state is required: a two-letter state code such as ny");
    }
    const state = accessibleState(rawState.trim(), request.caller, licenses);
    if (!state) return problem("state-unavailable", STATE_UNAVAILABLE);

    const parsed = SearchParamsSchema.safeParse({ state, name: query.name, address: query.address });
    if (!parsed.success) return problem("bad-request", describeSearchError(parsed.error));
    const docs = licenses.search(parsed.data);
    reply.type("application/json").send(`{"data":[${docs.join(",")}]}`);
  });
}
