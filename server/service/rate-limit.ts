import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { Redis } from "ioredis";
import { createRequire } from "node:module";
import { withoutPassword } from "../db/state-db.ts";

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

// The plugin's in-memory store: what a node counts with on its own, and while Redis is away.
const require = createRequire(import.meta.url);
type StoreClass = new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  ...rest: unknown[]
) => FastifyRateLimitStore;
const LocalStore = require("@fastify/rate-limit/store/LocalStore.js") as StoreClass;

// Takes `block` permits of a key's window in one step: the count after, and the window's time left.
const RESERVE = `
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return {count, ttl}`;

/** Permits a node takes from Redis at once: a twentieth of the limit, so a round trip serves that many requests. */
export function permitsPerTrip(max: number): number {
  return Math.max(1, Math.floor(max / 20));
}

interface Window {
  endsAt: number;
  /** Permits taken from Redis and not yet spent here. */
  permits: number;
  /** Redis's count once the last permits were taken. */
  counted: number;
  /** Redis had no more for this window. */
  spent: boolean;
  taking: Promise<void> | null;
}

/**
 * One count per key across every node, in Redis, without a round trip per request: a node takes permits in blocks
 * (INCRBY, atomic) and spends them locally, so no window admits more than the limit across all nodes; permits a node
 * took and did not spend before the window ends are lost (at most a block per node: the limit errs on the strict
 * side). A count Redis cannot take is taken in this node's memory instead.
 */
function sharedOrLocal(redis: Redis, health: { failed(): void; answered(): void }): FastifyRateLimitStoreCtor {
  redis.defineCommand("llsReserve", { numberOfKeys: 1, lua: RESERVE });
  const reserve = (key: string, block: number, windowMs: number) =>
    (redis as Redis & { llsReserve(key: string, block: number, ms: number): Promise<[number, number]> }).llsReserve(
      key,
      block,
      windowMs,
    );
  const make = (local: FastifyRateLimitStore): FastifyRateLimitStore => {
    const windows = new Map<string, Window>();
    const take = (key: string, window: Window, windowMs: number, max: number) => {
      const block = permitsPerTrip(max);
      window.taking ??= reserve(`lls-rate-limit:${key}`, block, windowMs)
        .then(([count, ttl]) => {
          health.answered();
          const granted = Math.max(0, Math.min(block, max - (count - block)));
          window.permits += granted;
          window.counted = count;
          window.spent = granted < block;
          window.endsAt = Date.now() + ttl;
        })
        .finally(() => {
          window.taking = null;
        });
      return window.taking;
    };
    const store: FastifyRateLimitStore = {
      incr(key, callback, timeWindow, max) {
        const now = Date.now();
        let window = windows.get(key);
        if (!window || window.endsAt <= now) {
          window = { endsAt: now + timeWindow, permits: 0, counted: 0, spent: false, taking: null };
          windows.set(key, window);
          // Keys seen once stay only as long as their window: the map holds the keys of the last windows.
          if (windows.size > 10_000) for (const [k, w] of windows) if (w.endsAt <= now) windows.delete(k);
        }
        const answer = (w: Window) => {
          const ttl = Math.max(0, w.endsAt - Date.now());
          if (w.permits > 0) {
            w.permits -= 1;
            return callback(null, { current: Math.min(max, w.counted - w.permits), ttl });
          }
          if (w.spent) return callback(null, { current: max + 1, ttl });
          take(key, w, timeWindow, max).then(
            () => answer(w),
            () => {
              health.failed();
              local.incr(key, callback, timeWindow, max);
            },
          );
        };
        answer(window);
      },
      child: () => store,
    };
    return store;
  };
  // The plugin constructs the store with `new`: an object returned from a constructor is what `new` gives.
  return function SharedOrLocal(params: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
    const { continueExceeding = false, exponentialBackoff = false } = params;
    return make(new LocalStore(continueExceeding, exponentialBackoff));
  } as unknown as FastifyRateLimitStoreCtor;
}
