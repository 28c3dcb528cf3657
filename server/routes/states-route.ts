import type { FastifyInstance } from "fastify";
import type { LicenseRepo } from "../store/license-repo.ts";

/** Our addition to the contract: the states this key can search, and what backs each. */
export function statesRoute(app: FastifyInstance, licenses: LicenseRepo) {
  app.get("/v2/states", (request, reply) => {
    reply.send({ data: licenses.coverage().filter((c) => request.caller?.covers(c.state)) });
  });
}
