import type { FastifyInstance } from "fastify";
import { stateKind } from "../../../src/contract/coverage-kind.ts";
import type { ServedSnapshot, StateCoverage } from "../../../src/contract/envelopes.ts";
import type { LicenseRepo } from "../../store/license-repo.ts";

/** A state's coverage with what backs it, where its sources' words tell. */
function withKind(coverage: StateCoverage): StateCoverage {
  const kind = stateKind(coverage.sources);
  return kind ? { ...coverage, kind } : coverage;
}

/**
 * Our addition to the contract: the states this key can search, and what backs each; on a node following
 * snapshots, also the snapshot served (read in the same step as the data, so the two always agree).
 */
export function statesRoute(app: FastifyInstance, licenses: LicenseRepo, served?: () => ServedSnapshot | null) {
  app.get("/v2/states", (request, reply) => {
    const data = licenses
      .coverage()
      .filter((c) => request.caller?.covers(c.state))
      .map(withKind);
    reply.send(served ? { data, snapshot: served() } : { data });
  });
}
