import type { FastifyReply, FastifyRequest } from "fastify";
import { sendProblem } from "./problem.ts";

// Reading changes nothing, and a CORS preflight must reach the CORS plugin.
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Whether another site's page sent a request that would change something. A browser says so in Sec-Fetch-Site;
 * one too old to send it still sends Origin, which must then be this host. A request with neither is no browser's
 * (curl, a script holding the session), so no other site can have made it.
 */
function fromAnotherSite(request: FastifyRequest): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const site = request.headers["sec-fetch-site"];
  if (site) return site !== "same-origin" && site !== "none";
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  return URL.parse(origin)?.host !== request.headers.host;
}

/** An onRequest hook that answers a change from another site 403, `detail` saying who may make it. */
export function refuseOtherSites(detail: string) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (fromAnotherSite(request)) return sendProblem(reply, 403, detail);
  };
}
