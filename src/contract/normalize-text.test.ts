import { describe, expect, it } from "vitest";
import { normalizeText, words } from "./normalize-text.ts";

describe("normalizeText", () => {
  it("ignores case, accents, punctuation and apostrophes, and reads & as and", () => {
    expect(normalizeText("Smith & Sons, LLC")).toBe("smith and sons llc");
    expect(normalizeText("JOE'S")).toBe(normalizeText("Joe’s"));
    expect(normalizeText("JOE'S")).toBe("joes");
    expect(normalizeText("P.J. Clarke's")).toBe("pj clarkes");
    expect(normalizeText("  Café  Crème ")).toBe("cafe creme");
  });

  it("splits normalized text into its words, none for empty text", () => {
    expect(words(normalizeText("Dead Rabbit - Tavern"))).toEqual(["dead", "rabbit", "tavern"]);
    expect(words(normalizeText(" - "))).toEqual([]);
  });
});
