import type { UsersStore } from "./users-store.ts";

/** Ten failed sign-ins in a row lock an account, or an address, for this long; each failure while locked is not counted. */
export const FAILURES_BEFORE_LOCK = 10;
export const LOCK_MS = 15 * 60_000;

/**
 * Failed sign-ins per account and per address, kept in the app's database, so that every app node counts the same
 * tries: a guesser is slowed to ten tries each quarter hour whichever they vary, and whichever node they reach.
 * A success clears both its account and its address.
 */
export function createSignInThrottle({
  failures,
  now = () => Date.now(),
}: {
  failures: UsersStore["signInFailures"];
  now?: () => number;
}) {
  return {
    /** Seconds to wait before `keys` may try again; 0 when they may now. */
    async waitSeconds(keys: readonly string[]): Promise<number> {
      const since = await failures.lockedSince(keys, FAILURES_BEFORE_LOCK);
      return since === null ? 0 : Math.ceil(Math.max(0, Date.parse(since) + LOCK_MS - now()) / 1000);
    },
    failed: (keys: readonly string[]) => failures.failed(keys),
    succeeded: (keys: readonly string[]) => failures.cleared(keys),
  };
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;
