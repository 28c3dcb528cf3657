import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { Redis } from "ioredis";
import { createRequire } from "node:module";
import { withoutPassword } from "./db/state-db.ts";

export interface RateLimitOptions {
  /** Sustained requests per second per key. */
  perSecond: number;
  /** Requests a key may make at once before the limit applies. */
  burst: number;
  /** REDIS_URL: each key's count kept there, so one key's limit holds across every node. */
  redisUrl?: string | null;
}

// A team behind the app server shares one key: ten clerks typing (a search and its provenance a keystroke)
// and the watchlist's check come to about 110 requests a second. A key's limit is a guard against a runaway
// client, not the service's capacity (thousands a second).
export const DEFAULT_RATE_LIMIT: RateLimitOptions = { perSecond: 150, burst: 300 };

// A Redis that does not answer within this costs a request no more: the request is counted on this node instead.
const REDIS_COMMAND_TIMEOUT_MS = 250;

export function isRedisUrl(value: string): boolean {
  return /^rediss?:\/\//.test(value);
}

/** REDIS_URL when set; null: each node counts on its own, in memory. */
export function redisUrlFromEnv(env: NodeJS.ProcessEnv): string | null {
  const url = env.REDIS_URL?.trim();
  if (!url) return null;
  if (!isRedisUrl(url)) throw new Error(`REDIS_URL must be a redis:// or rediss:// URL (or unset), not "${url}"`);
  return url;
}

/**
 * Per-key rate limit: `burst` requests per window of burst/perSecond seconds, so a key sustains perSecond and may
 * burst to `burst`. Runs after authentication, keyed by the key's id. With Redis, while it cannot be reached each
 * node counts on its own (a key may then make its limit once per node), says so once in the log, and its
 * readiness names Redis: a guard against a runaway client should not take the service down with it.
 */
export function createRateLimiter({ perSecond, burst, redisUrl = null }: RateLimitOptions, log: FastifyBaseLogger) {
  const redis = redisUrl ? connectRedis(redisUrl, log) : null;
  const where = redisUrl ? withoutPassword(redisUrl) : "";
  return {
    async register(app: FastifyInstance) {
      await app.register(rateLimit, {
        global: true,
        hook: "preHandler",
        max: burst,
        timeWindow: Math.max(1, Math.round((burst / perSecond) * 1000)),
        ...(redis && { store: sharedOrLocal(redis.client, redis) }),
        // The x-ratelimit-* headers only on a 429, beside Retry-After: on every answer they cost about a
        // tenth of a license lookup's server time, for a limit the README states anyway.
        addHeadersOnExceeding: {
          "x-ratelimit-limit": false,
          "x-ratelimit-remaining": false,
          "x-ratelimit-reset": false,
        },
        keyGenerator: (request) => `key:${request.caller?.keyId}`,
        errorResponseBuilder: (_request, context) =>
          Object.assign(
            new Error(
              `This API key has made more than ${context.max} requests in a short time; try again in ${context.after}.`,
            ),
            { statusCode: 429 },
          ),
      });
    },
    /** Resolves once Redis answers, or after `timeoutMs` (the node then starts counting on its own). */
    connected: (timeoutMs = 2000) => redis?.connected(timeoutMs) ?? Promise.resolve(true),
    async readiness(): Promise<string[]> {
      if (!redis) return [];
      try {
        await redis.client.ping();
        return [];
      } catch {
        return [`Redis (${where}) is unreachable: each key's rate limit is counted on this node alone`];
      }
    },
    close(): Promise<void> {
      redis?.client.disconnect();
      return Promise.resolve();
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

function connectRedis(url: string, log: FastifyBaseLogger) {
  const client = new Redis(url, {
    // A request never waits for Redis to come back: a command fails at once while it is away.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 100, 1000),
  });
  const where = withoutPassword(url);
  let away = false;
  const unreachable = (error?: Error) => {
    if (away) return;
    away = true;
    log.warn(
      { err: error },
      `Redis at ${where} is unreachable: each API key's rate limit is counted on this node alone until it is back`,
    );
  };
  // Every failed reconnection emits one: logged once per outage.
  client.on("error", unreachable);
  return {
    client,
    failed: () => unreachable(),
    // A Redis that stalled without dropping the connection never says "ready" again: its first answer does.
    answered() {
      if (!away) return;
      away = false;
      log.warn(`Redis at ${where} answers again: API keys' rate limits are shared by every node`);
    },
    connected(timeoutMs: number): Promise<boolean> {
      if (client.status === "ready") return Promise.resolve(true);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          client.off("ready", ready);
          unreachable();
          resolve(false);
        }, timeoutMs);
        const ready = () => {
          clearTimeout(timer);
          resolve(true);
        };
        client.once("ready", ready);
      });
    },
  };
}

// The plugin's own stores: Redis's script and the in-memory fallback, as the plugin itself would use them.
const require = createRequire(import.meta.url);
type StoreClass = new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  ...rest: unknown[]
) => FastifyRateLimitStore;
const RedisStore = require("@fastify/rate-limit/store/RedisStore.js") as StoreClass;
const LocalStore = require("@fastify/rate-limit/store/LocalStore.js") as StoreClass;

/** Counts in Redis; a count Redis cannot take is taken in this node's memory instead. */
function sharedOrLocal(redis: Redis, health: { failed(): void; answered(): void }): FastifyRateLimitStoreCtor {
  const either = (shared: FastifyRateLimitStore, local: FastifyRateLimitStore): FastifyRateLimitStore => ({
    incr(key, callback, timeWindow, max) {
      shared.incr(
        key,
        (error, result) => {
          if (!error) {
            health.answered();
            return callback(null, result);
          }
          health.failed();
          local.incr(key, callback, timeWindow, max);
        },
        timeWindow,
        max,
      );
    },
    child: (route) => either(shared.child(route), local.child(route)),
  });
  // The plugin constructs the store with `new`: an object returned from a constructor is what `new` gives.
  return function SharedOrLocal(params: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
    const { continueExceeding = false, exponentialBackoff = false } = params;
    return either(
      new RedisStore(continueExceeding, exponentialBackoff, redis, "lls-rate-limit:"),
      new LocalStore(continueExceeding, exponentialBackoff),
    );
  } as unknown as FastifyRateLimitStoreCtor;
}
