import { describe, expect, it } from "vitest";
import { allowedEdits, editDistance, Vocabulary } from "./near-words.ts";

describe("how far a typo may be", () => {
  it("forgives nothing under 4 letters, one edit to 7, two from 8, and never in a number", () => {
    expect([allowedEdits("bar"), allowedEdits("dead"), allowedEdits("rabbit"), allowedEdits("restaurnt")]).toEqual([
      0, 1, 1, 2,
    ]);
    expect(allowedEdits("1541")).toBe(0);
  });

  it("counts a letter dropped, added, changed, or two neighbours swapped as one edit", () => {
    expect(editDistance("rabit", "rabbit", 1)).toBe(1);
    expect(editDistance("rabbbit", "rabbit", 1)).toBe(1);
    expect(editDistance("rebbit", "rabbit", 1)).toBe(1);
    expect(editDistance("unoin", "union", 1)).toBe(1);
    expect(editDistance("restaurnat", "restaurant", 2)).toBe(1);
    expect(editDistance("resturnat", "restaurant", 2)).toBe(2);
    // Past the most allowed, it says so without working out how far.
    expect(editDistance("tavern", "rabbit", 1)).toBe(2);
  });
});

describe("a vocabulary's near words", () => {
  const vocabulary = new Vocabulary(["rabbit", "rabbits", "habit", "union", "onion", "restaurant", "tavern", "1541"]);

  it("finds the words a typo stands for, nearest first, never the word itself", () => {
    expect(vocabulary.near("rabit", 5)).toEqual([
      { word: "habit", edits: 1 },
      { word: "rabbit", edits: 1 },
    ]);
    expect(vocabulary.near("unoin", 5)).toEqual([{ word: "union", edits: 1 }]);
    expect(vocabulary.near("tavern", 5)).toEqual([]);
  });

  it("finds a long word two edits away, even with both its ends changed", () => {
    expect(vocabulary.near("arestauranx", 5)).toEqual([{ word: "restaurant", edits: 2 }]);
  });

  it("keeps at most the number asked, and never offers a number", () => {
    expect(vocabulary.near("rabbit", 1)).toEqual([{ word: "rabbits", edits: 1 }]);
    expect(vocabulary.near("1542", 5)).toEqual([]);
  });
});
