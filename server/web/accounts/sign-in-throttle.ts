/** Ten failed sign-ins in a row lock an account, or an address, for this long; each failure while locked is not counted. */
export const FAILURES_BEFORE_LOCK = 10;
export const LOCK_MS = 15 * 60_000;
const MAX_KEYS = 100_000;

interface Tally {
  failures: number;
  lastAt: number;
}

/**
 * Failed sign-ins per account and per address, in this process: a guesser is slowed to ten tries each quarter hour
 * whichever they vary. A success clears both its account and its address.
 */
export function createSignInThrottle({ now = () => Date.now() }: { now?: () => number } = {}) {
  const tallies = new Map<string, Tally>();

  function lockedFor(key: string): number {
    const tally = tallies.get(key);
    if (!tally || tally.failures < FAILURES_BEFORE_LOCK) return 0;
    return Math.max(0, tally.lastAt + LOCK_MS - now());
  }

  return {
    /** Seconds to wait before `keys` may try again; 0 when they may now. */
    waitSeconds(keys: readonly string[]): number {
      return Math.ceil(Math.max(0, ...keys.map(lockedFor)) / 1000);
    },
    failed(keys: readonly string[]): void {
      if (tallies.size > MAX_KEYS) {
        for (const [key, tally] of tallies) if (tally.lastAt + LOCK_MS < now()) tallies.delete(key);
      }
      for (const key of keys) {
        const tally = tallies.get(key);
        tallies.set(key, { failures: (tally?.failures ?? 0) + 1, lastAt: now() });
      }
    },
    succeeded(keys: readonly string[]): void {
      for (const key of keys) tallies.delete(key);
    },
  };
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;
