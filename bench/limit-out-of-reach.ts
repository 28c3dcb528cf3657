import type { RateLimitOptions } from "../server/service/rate-limit.ts";

/** A per-key rate limit one bench key can never reach: the limiter's cost stays in the figures. */
const UNREACHABLE = 1_000_000_000;
export const LIMIT_OUT_OF_REACH: RateLimitOptions = { perSecond: UNREACHABLE, burst: UNREACHABLE };
