import { describe, expect, it } from "vitest";
import { groupedSerials, uniqueSerials } from "./unique-serials.ts";

describe("uniqueSerials", () => {
  it("gives every index in the range a distinct serial inside [lo, lo + size)", () => {
    for (const size of [1, 7, 1000, 4097]) {
      const serials = uniqueSerials(500, size, 42);
      const seen = new Set(Array.from({ length: size }, (_, i) => serials(i)));
      expect(seen.size).toBe(size);
      for (const s of seen) expect(s >= 500 && s < 500 + size).toBe(true);
    }
  });

  it("looks shuffled and depends on the key", () => {
    const a = Array.from({ length: 20 }, (_, i) => uniqueSerials(0, 1_000_000, 1)(i));
    const b = Array.from({ length: 20 }, (_, i) => uniqueSerials(0, 1_000_000, 2)(i));
    expect(a).not.toEqual(b);
    expect(a).not.toEqual([...a].sort((x, y) => x - y));
  });

  it("keeps counting, still unique, past the shuffled range", () => {
    const serials = uniqueSerials(10, 100, 3);
    const all = Array.from({ length: 250 }, (_, i) => serials(i));
    expect(new Set(all).size).toBe(250);
    expect(all.slice(100)).toEqual(Array.from({ length: 150 }, (_, i) => 110 + i));
  });
});

describe("groupedSerials", () => {
  it("issues each group its own sequence of distinct serials", () => {
    const next = groupedSerials(0, 50, (group) => group.length);
    const a = Array.from({ length: 50 }, () => next("a"));
    const bb = Array.from({ length: 50 }, () => next("bb"));
    expect(new Set(a).size).toBe(50);
    expect(new Set(bb).size).toBe(50);
    expect(a).not.toEqual(bb);
  });
});
