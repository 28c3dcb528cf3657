/**
 * mulberry32: a tiny, fast PRNG built only from 32-bit integer steps, so a seed gives the same
 * sequence on every engine and machine (Math.random is neither seedable nor reproducible).
 */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both ends included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
}

/** A 32-bit seed for one purpose (`label`) of one run, so each purpose gets its own stream. */
export function deriveSeed(seed: number, label: string): number {
  const whole = Math.trunc(seed);
  let h = Math.imul((whole >>> 0) ^ 0x811c9dc5, 0x01000193);
  // Seeds past 2^32 still differ from their low bits alone.
  h = Math.imul(h ^ (Math.floor(whole / 4294967296) >>> 0), 0x01000193);
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193);
  return mix32(h);
}

/** murmur3's finaliser: spreads every input bit over the whole word. */
export function mix32(value: number): number {
  let h = value ^ (value >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
