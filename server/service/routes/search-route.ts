import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { describeSearchError, SearchParamsSchema } from "../../../src/contract/search-query.ts";
import type { SearchQuery } from "../../../src/contract/search-query.ts";
import type { LicenseRepo } from "../../store/license-repo.ts";
import { sendProblem, type ProblemKind } from "../../http/problem.ts";
import { accessibleState, STATE_UNAVAILABLE } from "../state-access.ts";

/**
 * The contract's search, and our addition beside it: the same search with where each license comes
 * from, so a client shows results and their sources after one round trip rather than two.
 */
export function searchRoute(app: FastifyInstance, licenses: LicenseRepo) {
  // Not async: every request would pay for a promise it does not need.
  app.get("/v2/search", (request, reply) => {
    const query = readSearch(request, reply, licenses);
    if (!query) return;
    // The stored JSON spliced in: never parsed to be written again.
    reply.type("application/json").send(`{"data":[${licenses.search(query).join(",")}]}`);
  });

  app.get("/v2/search-with-provenance", (request, reply) => {
    const query = readSearch(request, reply, licenses);
    if (!query) return;
    const { docs, provenance } = licenses.searchWithProvenance(query);
    reply
      .type("application/json")
      .send(`{"data":{"licenses":[${docs.join(",")}],"provenance":${JSON.stringify(provenance)}}}`);
  });
}

/** The search asked for, or null once a problem has been sent. */
function readSearch(request: FastifyRequest, reply: FastifyReply, licenses: LicenseRepo): SearchQuery | null {
  const problem = (kind: ProblemKind, detail: string) => {
    sendProblem(reply, kind, detail);
    return null;
  };
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
  return parsed.data;
}
