import { isIPv4, isIPv6 } from "node:net";
import type { UsersStore } from "./users-store.ts";

/**
 * Ten failed tries in a row, each within LOCK_MS of the one before, lock an account or an address until LOCK_MS after
 * the last; then it starts again from nothing.
 */
export const FAILURES_BEFORE_LOCK = 10;
export const LOCK_MS = 15 * 60_000;
// Forgotten tries are deleted at most this often by each node: not a statement more on every sign-in.
const PRUNE_EVERY_MS = 60_000;

/** What a sign-in (or a password link's use) is counted under: the account tried, and where the try came from. */
export interface ThrottleKeys {
  account?: string;
  address: string;
}

export type Taken =
  | { outcome: "throttled"; seconds: number }
  /** `locking`: the keys that this try, if it fails, locks. */
  | { outcome: "taken"; locking: (keyof ThrottleKeys)[] };

/**
 * The address a client is counted under: an IPv4 address as it is, an IPv6 one by its /64, which one
 * subscriber holds whole (counting each of its addresses apart would count nothing).
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return mapped;
  if (isIPv4(address) || !isIPv6(address.split("%")[0]!)) return address;
  const [head = "", tail = ""] = address.split("%")[0]!.split("::");
  const groups = (part: string) => (part ? part.split(":").flatMap((g) => (g.includes(".") ? ["0", "0"] : [g])) : []);
  const [before, after] = [groups(head), groups(tail)];
  const full = [...before, ...Array<string>(8 - before.length - after.length).fill("0"), ...after];
  return `${full
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}

/**
 * Tries at a secret per account and per address, kept in the app's database so that every app node counts the same
 * tries. A try is taken before the secret is checked, in one statement, so a burst of sixty at once gets ten tries and
 * fifty 429s. A success forgets the account's count and gives the address its try back, but leaves the address's
 * failures counted: signing in as oneself does not buy another nine guesses at others.
 */
export function createSignInThrottle({
  tries,
  now = () => Date.now(),
}: {
  tries: UsersStore["signInTries"];
  now?: () => number;
}) {
  let prunedAt = 0;
  const staleBefore = () => new Date(now() - LOCK_MS).toISOString();
  // As the database keeps them, so that the keys its RETURNING names are these: a lone surrogate is stored as U+FFFD.
  const stored = (keys: ThrottleKeys) =>
    (Object.keys(keys) as (keyof ThrottleKeys)[]).map((name) => ({
      name,
      key: `${name}:${keys[name]!}`.replace(/\p{Cs}/gu, "\uFFFD"),
    }));

  return {
    /** A try for each key, or the seconds to wait when one of them is locked (and then none is counted). */
    async take(keys: ThrottleKeys): Promise<Taken> {
      if (now() - prunedAt > PRUNE_EVERY_MS) {
        prunedAt = now();
        await tries.prune(staleBefore());
      }
      const named = stored(keys);
      const taken = await tries.take(
        named.map((k) => k.key),
        FAILURES_BEFORE_LOCK,
        staleBefore(),
      );
      const refused = named.filter((k) => !taken.has(k.key));
      if (refused.length === 0) {
        return {
          outcome: "taken",
          locking: named.filter((k) => taken.get(k.key) === FAILURES_BEFORE_LOCK).map((k) => k.name),
        };
      }
      // A try refused at one key is no try at the others.
      await Promise.all([...taken.keys()].map((key) => tries.giveBack(key)));
      const last = await tries.lastAt(refused.map((k) => k.key));
      const until = last === null ? 0 : Date.parse(last) + LOCK_MS;
      return { outcome: "throttled", seconds: Math.max(1, Math.ceil((until - now()) / 1000)) };
    },
    /** The try succeeded: the account starts again from 0, and the address gets its try back. */
    async succeeded(keys: ThrottleKeys): Promise<void> {
      for (const { name, key } of stored(keys)) {
        await (name === "account" ? tries.forget(key) : tries.giveBack(key));
      }
    },
  };
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;
