import { describe, expect, it } from "vitest";
import { matchTier } from "./search-ranking.ts";
import { fieldKey, searchTerms } from "./search-terms.ts";

const nameTier = (field: string, query: string) => matchTier(fieldKey("business", field), searchTerms("name", query)!);
const addressTier = (field: string, query: string) =>
  matchTier(fieldKey("address", field), searchTerms("address", query)!);

describe("the matching rule", () => {
  it("ignores case, accents, apostrophes and punctuation; & is and", () => {
    expect(nameTier("JOE'S BAR", "joes")).toBe(1);
    expect(nameTier("JOES BAR", "Joe's")).toBe(1);
    expect(nameTier("CAFÉ ROYALE", "cafe")).toBe(1);
    expect(nameTier("BAR & GRILL", "bar and grill")).toBe(0);
    expect(nameTier("P.J. CLARKE'S", "pj clarkes")).toBe(0);
    expect(nameTier("MAIN-STREET/WINE", "main street wine")).toBe(0);
  });

  it("needs every word, in any order, partial words allowed", () => {
    expect(nameTier("DEAD RABBIT TAVERN", "rabbit dead")).toBe(1);
    expect(nameTier("DEAD RABBIT TAVERN", "rabb")).toBe(2);
    expect(nameTier("DEAD RABBIT TAVERN", "dead fox")).toBeNull();
  });

  it("matches words of one or two characters at word starts only", () => {
    expect(nameTier("THE RED LION", "li")).toBe(2);
    expect(nameTier("THE RED LION", "io")).toBeNull();
    expect(nameTier("THE RED LION", "ion")).toBe(3);
  });

  it("orders equal, starts-with, word starts, inside words", () => {
    expect(nameTier("DEAD RABBIT", "dead rabbit")).toBe(0);
    expect(nameTier("DEAD RABBIT TAVERN", "dead rab")).toBe(1);
    expect(nameTier("THE DEAD RABBIT", "dead rabbit")).toBe(2);
    expect(nameTier("DEADWOOD GRABBIT", "rabbit")).toBe(3);
  });

  it("ranks the words in any order as in the order typed; a word half typed may come anywhere", () => {
    expect(nameTier("DEAD RABBIT", "rabbit dead")).toBe(0);
    expect(nameTier("DEAD RABBIT TAVERN", "tavern rabbit dead")).toBe(0);
    expect(nameTier("DEAD RABBIT TAVERN", "rab dead")).toBe(1);
    expect(nameTier("THE RABBIT IS DEAD", "dead rabbit")).toBe(2);
    expect(nameTier("DEADWOOD GRABBIT", "rabbit dead")).toBe(3);
    // Five words or more are tiers 0 and 1 only in the order typed.
    expect(nameTier("A B C D E", "e d c b a")).toBe(2);
    expect(nameTier("A B C D", "d c b a")).toBe(0);
  });

  it("treats USPS street suffixes, directionals and numbered streets as their long forms", () => {
    expect(addressTier("30 WATER STREET", "30 water st")).toBe(0);
    expect(addressTier("30 WATER ST", "30 Water Street")).toBe(0);
    expect(addressTier("1200 N MAIN AVE", "1200 north main avenue")).toBe(0);
    expect(addressTier("915 3RD AVE", "915 third av")).toBe(0);
    expect(addressTier("1 FIRST AVENUE", "1 1st ave")).toBe(0);
    expect(addressTier("30 WATER STREET", "30 water stre")).toBe(1);
    expect(addressTier("40 BLVD OF THE ALLIES", "boulevard allies")).toBe(2);
  });

  it("treats the characters SQL and full-text syntax use as plain text", () => {
    for (const q of ["%", "_", '"', "*", "'", "NEAR", "OR", "-", "^"]) {
      const terms = searchTerms("name", q);
      if (terms) expect(matchTier(fieldKey("business", "DEAD RABBIT TAVERN"), terms)).toBeNull();
    }
    expect(nameTier("OR NEAR BAR", "near or")).toBe(1);
  });
});
