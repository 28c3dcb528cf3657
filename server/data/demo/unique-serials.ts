import { mix32 } from "./seeded-random.ts";

const ROUNDS = 4;

/**
 * Serial numbers that never repeat yet look shuffled: index i (0, 1, 2, ...) maps to a distinct
 * value in [lo, lo + size) through a keyed Feistel permutation, so uniqueness holds by
 * construction instead of by a set of numbers already used. Indexes past `size` continue
 * sequentially from lo + size, still unique, only no longer shuffled.
 */
export function uniqueSerials(lo: number, size: number, key: number): (index: number) => number {
  const permute = keyedPermutation(size, key);
  return (index) => lo + (index < size ? permute(index) : index);
}

/** A bijection on [0, size): a Feistel network on the smallest even bit width that holds `size`,
 *  walking the cycle until the value falls back inside the range. */
function keyedPermutation(size: number, key: number): (index: number) => number {
  if (!Number.isSafeInteger(size) || size < 1 || size > 2 ** 30) throw new RangeError(`bad permutation size ${size}`);
  let half = 1;
  while (2 ** (2 * half) < size) half++;
  const mask = (1 << half) - 1;
  const roundKeys = new Int32Array(ROUNDS);
  for (let r = 0; r < ROUNDS; r++) roundKeys[r] = mix32(key + Math.imul(r + 1, 0x9e3779b9));

  return (index) => {
    let value = index;
    do {
      let left = value >>> half;
      let right = value & mask;
      for (let r = 0; r < ROUNDS; r++) {
        const next = left ^ (mix32(right ^ roundKeys[r]!) & mask);
        left = right;
        right = next;
      }
      value = (left << half) | right;
    } while (value >= size);
    return value;
  };
}

/**
 * Shuffled serials issued in turn within each group (a town, a permit type): a group's n-th call
 * gets its n-th serial, so numbers never repeat inside a group. `keyFor` keys each group's shuffle.
 */
export function groupedSerials(lo: number, size: number, keyFor: (group: string) => number): (group: string) => number {
  const groups = new Map<string, { serials: (index: number) => number; issued: number }>();
  return (group) => {
    let g = groups.get(group);
    if (!g) {
      g = { serials: uniqueSerials(lo, size, keyFor(group)), issued: 0 };
      groups.set(group, g);
    }
    return g.serials(g.issued++);
  };
}
