import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance } from "fastify";

export interface RateLimitOptions {
  /** Sustained requests per second per key. */
  perSecond: number;
  /** Requests a key may make at once before the limit applies. */
  burst: number;
}

// A team behind the app server shares one key: ten clerks typing (a search and its provenance a keystroke)
// and the watchlist's check come to about 110 requests a second. A key's limit is a guard against a runaway
// client, not the service's capacity (thousands a second).
export const DEFAULT_RATE_LIMIT: RateLimitOptions = { perSecond: 150, burst: 300 };

/**
 * Per-key rate limit: `burst` requests per window of burst/perSecond seconds, so a key sustains
 * perSecond and may burst to `burst`. Runs after authentication, keyed by the key's id.
 */
export async function registerRateLimit(app: FastifyInstance, { perSecond, burst }: RateLimitOptions) {
  await app.register(rateLimit, {
    global: true,
    hook: "preHandler",
    max: burst,
    timeWindow: Math.max(1, Math.round((burst / perSecond) * 1000)),
    // The x-ratelimit-* headers only on a 429, beside Retry-After: on every answer they cost about a
    // tenth of a license lookup's server time, for a limit the README states anyway.
    addHeadersOnExceeding: { "x-ratelimit-limit": false, "x-ratelimit-remaining": false, "x-ratelimit-reset": false },
    keyGenerator: (request) => `key:${request.caller?.keyId}`,
    errorResponseBuilder: (_request, context) =>
      Object.assign(
        new Error(
          `This API key has made more than ${context.max} requests in a short time; try again in ${context.after}.`,
        ),
        { statusCode: 429 },
      ),
  });
}
