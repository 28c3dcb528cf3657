import { describe, expect, it } from "vitest";
import { normalizeText } from "./normalize.ts";
import { matchTier } from "./search-ranking.ts";

const tier = (field: string, query: string) => matchTier(normalizeText(field), normalizeText(query));

describe("matching", () => {
  it("ignores case, accents, apostrophes and punctuation; & is and", () => {
    expect(tier("JOE'S BAR", "joes")).not.toBeNull();
    expect(tier("JOES BAR", "Joe's")).not.toBeNull();
    expect(tier("CAFÉ ROYALE", "cafe")).not.toBeNull();
    expect(tier("BAR & GRILL", "bar and grill")).toBe(0);
    expect(tier("P.J. CLARKE'S", "pj clarkes")).toBe(0);
    expect(tier("MAIN-STREET/WINE", "main street wine")).toBe(0);
  });

  it("needs every word, in any order, partial words allowed", () => {
    expect(tier("DEAD RABBIT TAVERN", "rabbit dead")).toBe(3);
    expect(tier("DEAD RABBIT TAVERN", "rabb")).toBe(2);
    expect(tier("DEAD RABBIT TAVERN", "dead fox")).toBeNull();
  });

  it("orders equal, starts-with, word starts in order, any order, inside words", () => {
    expect(tier("DEAD RABBIT", "dead rabbit")).toBe(0);
    expect(tier("DEAD RABBIT TAVERN", "dead rab")).toBe(1);
    expect(tier("THE DEAD RABBIT", "dead rabbit")).toBe(2);
    expect(tier("THE RABBIT IS DEAD", "dead rabbit")).toBe(3);
    expect(tier("DEADWOOD GRABBIT", "rabbit")).toBe(4);
  });
});
