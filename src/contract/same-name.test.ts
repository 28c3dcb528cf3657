import { describe, expect, it } from "vitest";
import { sameName } from "./same-name.ts";

const record = (business: string, owner = "") => ({ business, owner });

describe("sameName", () => {
  it("says a name that belongs to another business is not the record's", () => {
    expect(sameName("BLACK CAT TAVERN", record("WHITE HORSE"))).toBe(false);
    expect(sameName("WHITE HORSE", record("BLACK HORSE"))).toBe(false);
    expect(sameName("Black Cat Tavern", record("WHITE HORSE WINE & SPIRITS", "WHITE HORSE LIQUORS LLC"))).toBe(false);
  });

  it("reads names as the search does: case, punctuation, & and and, apostrophes, accents", () => {
    expect(sameName("Smith & Sons, LLC", record("SMITH AND SONS"))).toBe(true);
    expect(sameName("joe's pizza", record("JOES PIZZA"))).toBe(true);
    expect(sameName("Café Crème", record("CAFE CREME INC"))).toBe(true);
    expect(sameName("Cafe Creme", record("Café Crème"))).toBe(true);
  });

  it("ignores the words that say what form a business takes", () => {
    expect(sameName("The Dead Rabbit Tavern", record("DEAD RABBIT TAVERN"))).toBe(true);
    expect(sameName("Rose An Corporation", record("BLACK CAT TAVERN", "ROSE AN CORP"))).toBe(true);
    expect(sameName("White Horse Liquors Limited Company", record("X", "WHITE HORSE LIQUORS LLC"))).toBe(true);
  });

  it("reads a name with a DBA as the legal name and the trade name", () => {
    expect(sameName("PJ Whelihans", record("AJP ENTERPRISES LLC T/A PJ WHELIHANS"))).toBe(true);
    expect(sameName("AJP Enterprises LLC d/b/a PJ Whelihans", record("PJ WHELIHANS", "AJP ENTERPRISES LLC"))).toBe(
      true,
    );
    expect(sameName("Salvatore's", record("Michael Agricola LLC DBA Salvatore's"))).toBe(true);
  });

  it("joins initials written apart or together", () => {
    expect(sameName("pj clarkes", record("P J CLARKE'S"))).toBe(true);
    expect(sameName("P.J. Clarke's", record("P J CLARKE'S"))).toBe(true);
    expect(sameName("rj's place", record("R J'S PLACE INC"))).toBe(true);
  });

  it("takes a shorter name whose words all appear, in order, in the longer one", () => {
    expect(sameName("WHITE HORSE", record("WHITE HORSE TAVERN"))).toBe(true);
    expect(sameName("The Dead Rabbit", record("DEAD RABBIT TAVERN"))).toBe(true);
    expect(sameName("McSorley's Ale House", record("MCSORLEY'S OLD ALE HOUSE"))).toBe(true);
    expect(sameName("White Horse Tavern & Grill", record("WHITE HORSE TAVERN"))).toBe(true);
  });

  it("keeps a business name's word order, and every word of the shorter name", () => {
    expect(sameName("Rabbit Dead", record("DEAD RABBIT TAVERN"))).toBe(false);
    expect(sameName("Dead Rabbit Grill", record("DEAD RABBIT TAVERN"))).toBe(false);
    expect(sameName("Dead Rabbits", record("DEAD RABBIT TAVERN"))).toBe(false);
  });

  it("matches an owner written LAST, FIRST in any order", () => {
    expect(sameName("John Smith", record("SMITH'S BAR", "SMITH, JOHN"))).toBe(true);
    expect(sameName("John Smith", record("SMITH'S BAR", "SMITH, JOHN A"))).toBe(true);
    expect(sameName("Jane Smith", record("SMITH'S BAR", "SMITH, JOHN"))).toBe(false);
  });

  it("has nothing to disagree with when the list gives no name or the record has none", () => {
    expect(sameName("", record("WHITE HORSE"))).toBe(true);
    expect(sameName(" - ", record("WHITE HORSE"))).toBe(true);
    expect(sameName("BLACK CAT TAVERN", record("", ""))).toBe(true);
  });

  it("never matches a name against a record's empty owner", () => {
    expect(sameName("BLACK CAT TAVERN", record("WHITE HORSE", ""))).toBe(false);
  });
});
