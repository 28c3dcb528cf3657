import { describe, expect, it } from "vitest";
import { DecodingTableSchema, type DecodingTable } from "./decoding-table.ts";
import {
  codeName,
  codeNames,
  DECODED_STATES,
  loadDecodingTable,
  statusCategory,
  statusGloss,
  statusInTable,
} from "./decode.ts";

const tables = new Map<string, DecodingTable | null>();
// Wyoming: a state we hold no table for.
for (const state of [...DECODED_STATES, "wy"]) tables.set(state, await loadDecodingTable(state));
const table = (state: string) => tables.get(state) ?? null;

describe("the decoding tables", () => {
  it.each(DECODED_STATES)("%s: is well formed, and every entry names one of its sources", (state) => {
    expect(DecodingTableSchema.parse(table(state))).toMatchObject({ state });
  });

  // 9 a digit, A a letter, anything else as written.
  const shapeOf = (license: string) => license.replace(/[0-9]/g, "9").replace(/[A-Z]/g, "A");

  it.each([
    ["ny", "9999999", "1268007"],
    ["ma", "99999-AA-9999", "00780-RS-0116"],
    ["nj", "9999-99-999-999", "0101-33-005-003"],
    ["dc", "AAAA-999999", "ABRA-000559"],
    ["mi", "A-999999999", "L-000006894"],
    ["wa", "999999", "084222"],
    ["co", "99-99999", "03-10849"],
  ])("%s: writes its license numbers as %s, as its example does", (state, format, example) => {
    expect(table(state)?.number).toMatchObject({ format, example });
    expect(shapeOf(example)).toBe(format);
  });

  it("gives no number format for California, whose numbers run from 3 to 6 digits, nor Kentucky, whose type segment and serial vary", () => {
    expect(table("ca")?.number).toBeUndefined();
    expect(table("ky")?.number).toBeUndefined();
  });

  it("gives no number format for Pennsylvania, whose prefixes and serials vary in length (R142, AB58312), and sends a clerk to the PLCB+ License Search", () => {
    expect(table("pa")?.number).toBeUndefined();
    expect(table("pa")?.lookup.url).toBe("https://plcbplus.pa.gov/pub/Default.aspx?PossePresentation=LicenseSearch");
  });

  it("gives no number format for Georgia, whose numbers run from 1 to 5 digits", () => {
    expect(table("ga")?.number).toBeUndefined();
  });

  it("gives no number format for Texas (MB99255, MB911490, MB200070013)", () => {
    expect(table("tx")?.number).toBeUndefined();
  });

  it("gives no number format for Baltimore, which numbers its licenses anew each year", () => {
    expect(table("md")?.number).toBeUndefined();
  });

  it("refuses a number format whose source the table does not hold", () => {
    const number = { format: "9999999", example: "1268007", source: "a-blog" };
    expect(DecodingTableSchema.safeParse({ ...table("ny"), number }).success).toBe(false);
  });

  it("has no table for a state we hold none for", () => {
    expect(table("wy")).toBeNull();
  });

  it("takes an entry of category unknown (a record that is no license status), and no category but the four", () => {
    const entry = { values: ["tax record"], category: "unknown", words: "a tax record", source: "tx-import" };
    expect(DecodingTableSchema.safeParse({ ...table("tx"), statuses: [entry] }).success).toBe(true);
    expect(DecodingTableSchema.safeParse({ ...table("tx"), statuses: [{ ...entry, category: "valid" }] }).success).toBe(
      false,
    );
  });
});

describe("statusCategory", () => {
  it("decodes California's report codes and the words our service serves for them", () => {
    expect(statusCategory(table("ca"), "ACTIVE")).toEqual({ category: "in force", words: "active" });
    expect(statusCategory(table("ca"), "PEND")).toEqual({ category: "pending", words: "application pending" });
    expect(statusCategory(table("ca"), "pending")).toEqual({ category: "pending", words: "application pending" });
    expect(statusCategory(table("ca"), "new")).toEqual({ category: "pending", words: "new application" });
    expect(statusCategory(table("ca"), "REVPEN")).toEqual({ category: "not in force", words: "revocation pending" });
    expect(statusCategory(table("ca"), "revpen")).toEqual({ category: "not in force", words: "revocation pending" });
    expect(statusCategory(table("ca"), "SUREND")).toEqual({ category: "not in force", words: "surrendered" });
    expect(statusCategory(table("ca"), "surrendered")).toEqual({ category: "not in force", words: "surrendered" });
    expect(statusCategory(table("ca"), "cancelled")).toEqual({ category: "not in force", words: "cancelled" });
    expect(statusCategory(table("ca"), "suspended")).toEqual({ category: "not in force", words: "suspended" });
    expect(statusCategory(table("ca"), "revoked")).toEqual({
      category: "not in force",
      words: "revoked automatically",
    });
    expect(statusCategory(table("ca"), "deprev")).toEqual({ category: "not in force", words: "revoked" });
    expect(statusCategory(table("ca"), "r64b")).toEqual({
      category: "not in force",
      words: "under ABC rule 64(b) (meaning not published by ABC)",
    });
    // The importer serves NREN as "expired".
    expect(statusCategory(table("ca"), "NREN")).toEqual({ category: "not in force", words: "not renewed" });
    expect(statusCategory(table("ca"), "expired")).toEqual({ category: "not in force", words: "not renewed" });
    expect(statusCategory(table("ca"), "WTHDRN")).toEqual({ category: "not in force", words: "application withdrawn" });
    expect(statusCategory(table("ca"), "withdrawn")).toEqual({
      category: "not in force",
      words: "application withdrawn",
    });
    expect(statusCategory(table("ca"), "denied")).toEqual({ category: "not in force", words: "application denied" });
  });

  it("decodes New York's active list and its applications", () => {
    expect(statusCategory(table("ny"), "active")).toEqual({
      category: "in force",
      words: "on the SLA's list of active licenses",
    });
    expect(statusCategory(table("ny"), "pending")).toEqual({
      category: "pending",
      words: "application received, not yet decided",
    });
  });

  it("decodes New Jersey's inactive pocket licenses as not in force", () => {
    expect(statusCategory(table("nj"), "active")).toEqual({ category: "in force", words: "active" });
    expect(statusCategory(table("nj"), "inactive")).toEqual({
      category: "not in force",
      words: "inactive (a pocket license, not in use at any premises)",
    });
  });

  it("decodes Massachusetts' expiration status", () => {
    expect(statusCategory(table("ma"), "Active")).toEqual({ category: "in force", words: "active" });
    expect(statusCategory(table("ma"), "expired")).toEqual({ category: "not in force", words: "expired" });
  });

  it("decodes Georgia's two statuses, and leaves a license listed with both to the agency", () => {
    expect(statusCategory(table("ga"), "active")).toEqual({ category: "in force", words: "active" });
    expect(statusCategory(table("ga"), "Inactive")).toEqual({
      category: "not in force",
      words: "inactive (not a current license in the DOR's list)",
    });
    expect(statusCategory(table("ga"), "listed both active and inactive").category).toBe("unknown");
  });

  it("decodes the District's statuses, and leaves a list's silence (listed) to the agency", () => {
    expect(statusCategory(table("dc"), "active")).toEqual({ category: "in force", words: "active" });
    expect(statusCategory(table("dc"), "Safekeeping").category).toBe("not in force");
    expect(statusCategory(table("dc"), "new construction").category).toBe("pending");
    expect(statusCategory(table("dc"), "405.1 New Const").category).toBe("pending");
    expect(statusCategory(table("dc"), "awaiting license").category).toBe("pending");
    expect(statusCategory(table("dc"), "stipulated").category).toBe("in force");
    expect(statusCategory(table("dc"), "listed")).toEqual({ category: "unknown", words: "listed" });
  });

  it("decodes Kentucky's active report", () => {
    expect(statusCategory(table("ky"), "active")).toEqual({
      category: "in force",
      words: "active (on ABC's Active Licenses report)",
    });
  });

  it("decodes Michigan's escrowed licenses as not in force, and a conditional license as in force", () => {
    expect(statusCategory(table("mi"), "active")).toEqual({ category: "in force", words: "active" });
    expect(statusCategory(table("mi"), "escrow").category).toBe("not in force");
    expect(statusCategory(table("mi"), "Conditional").category).toBe("in force");
  });

  it("decodes Pennsylvania's statuses: safekeeping is not in force, a pending application not yet a license", () => {
    expect(statusCategory(table("pa"), "active")).toEqual({ category: "in force", words: "active" });
    expect(statusCategory(table("pa"), "safekeeping").category).toBe("not in force");
    expect(statusCategory(table("pa"), "Pending").category).toBe("pending");
    expect(statusCategory(table("pa"), "expired")).toEqual({ category: "not in force", words: "expired" });
  });

  it("decodes Washington's notices: an application pending, an approval to be confirmed, a discontinuance not in force", () => {
    expect(statusCategory(table("wa"), "new license applied for")).toEqual({
      category: "pending",
      words: "application for a new license, in the WSLCB's notices of applications",
    });
    expect(statusCategory(table("wa"), "assumption applied for").category).toBe("pending");
    expect(statusCategory(table("wa"), "change of location applied for").category).toBe("pending");
    expect(statusCategory(table("wa"), "new license approved")).toEqual({
      category: "unknown",
      words:
        "the WSLCB approved this new license in its licensing-activity notices; these notices are not the Board's list of licenses in force: confirm the license with the WSLCB",
    });
    expect(statusCategory(table("wa"), "discontinued")).toEqual({
      category: "not in force",
      words: "discontinued, in the WSLCB's notices of discontinued licenses",
    });
    // No status of the notices is in force.
    expect(table("wa")!.statuses.filter((s) => s.category === "in force")).toEqual([]);
  });

  it("decodes a Texas tax record as no license status, in words that send the clerk to TABC", () => {
    expect(statusCategory(table("tx"), "tax record")).toEqual({
      category: "unknown",
      words:
        "named in the Comptroller's mixed-beverage tax filings (a tax record, not TABC's license status): confirm with TABC",
    });
    expect(table("tx")!.statuses.map((s) => s.category)).toEqual(["unknown"]);
  });

  it("tells a status the table gives no meaning from one it gives words but no standing", () => {
    expect(statusInTable(table("tx"), " Tax Record ")).toBe(true);
    expect(statusInTable(table("tx"), "active")).toBe(false);
    expect(statusInTable(table("ca"), "PEND")).toBe(true);
    expect(statusInTable(table("ca"), "SLMSHD")).toBe(false);
    expect(statusInTable(table("wy"), "active")).toBe(false);
    expect(statusGloss(table("tx"), "tax record")).toMatch(/^named in the Comptroller's/);
    expect(statusGloss(table("ny"), "active")).toBe("on the SLA's list of active licenses");
    expect(statusGloss(table("ma"), "active")).toBeNull();
    expect(statusGloss(table("ca"), "SLMSHD")).toBeNull();
  });

  it("decodes Colorado's approved licenses as in force, and Baltimore's closed ones as not", () => {
    expect(statusCategory(table("co"), "approved").category).toBe("in force");
    expect(statusCategory(table("md"), "renewed")).toEqual({
      category: "in force",
      words: "renewed for the license year",
    });
    expect(statusCategory(table("md"), "Transferred").category).toBe("in force");
    expect(statusCategory(table("md"), "closed")).toEqual({ category: "not in force", words: "closed" });
    expect(statusCategory(table("md"), "")).toEqual({ category: "unknown", words: "" });
  });

  it("ignores case and surrounding spaces, in the state and the status", async () => {
    expect(await loadDecodingTable("CA")).toBe(table("ca"));
    expect(statusCategory(table("ca"), " Revpen ")).toEqual({ category: "not in force", words: "revocation pending" });
  });

  it("reads plain status words where the state's table has none (another service's data, a state without a table)", () => {
    expect(statusCategory(table("ny"), "expired")).toEqual({ category: "not in force", words: "expired" });
    expect(statusCategory(table("wy"), "Active")).toEqual({ category: "in force", words: "active" });
    expect(statusCategory(table("wy"), "suspended")).toEqual({ category: "not in force", words: "suspended" });
    expect(statusCategory(table("wy"), "pending")).toEqual({ category: "pending", words: "pending" });
    expect(statusCategory(table("tx"), "Active")).toEqual({ category: "in force", words: "active" });
  });

  it("keeps a status it cannot decode as written, in the unknown category", () => {
    expect(statusCategory(table("ca"), "SLMSHD")).toEqual({ category: "unknown", words: "SLMSHD" });
    expect(statusCategory(table("wy"), "in good standing")).toEqual({ category: "unknown", words: "in good standing" });
    expect(statusCategory(table("ca"), "")).toEqual({ category: "unknown", words: "" });
  });
});

describe("codeName", () => {
  it("names California's license types by ABC's published numbers", () => {
    expect(codeName(table("ca"), "type", "20")).toEqual({ name: "Off-Sale Beer & Wine" });
    expect(codeName(table("ca"), "type", "21")).toEqual({ name: "Off-Sale General" });
    expect(codeName(table("ca"), "type", "41")).toEqual({ name: "On-Sale Beer & Wine - Eating Place" });
    expect(codeName(table("ca"), "type", "47")).toEqual({ name: "On-Sale General - Eating Place" });
    expect(codeName(table("ca"), "type", "48")).toEqual({ name: "On-Sale General - Public Premises" });
    expect(codeName(table("ca"), "type", "77")).toEqual({ name: "Event Permit" });
  });

  it("names each type of a California license that holds several", () => {
    expect(codeNames(table("ca"), "type", "47, 58, 99x")).toEqual([
      { code: "47", name: "On-Sale General - Eating Place" },
      { code: "58", name: "Caterer's Permit" },
      { code: "99x", unknown: true },
    ]);
    expect(codeNames(table("ca"), "type", "")).toEqual([]);
  });

  it("names Washington's privileges, a list split at its semicolons, a name with a comma whole", () => {
    expect(codeNames(table("wa"), "type", "DOMESTIC WINERY < 250,000 LITERS; CATERING; NO SUCH")).toEqual([
      { code: "DOMESTIC WINERY < 250,000 LITERS", name: "Domestic winery under 250,000 liters (WSLCB privilege 327)" },
      { code: "CATERING", name: "Catering" },
      { code: "NO SUCH", unknown: true },
    ]);
    expect(codeNames(table("wa"), "type", "DOMESTIC WINERY < 250,000 LITERS")).toEqual([
      { code: "DOMESTIC WINERY < 250,000 LITERS", name: "Domestic winery under 250,000 liters (WSLCB privilege 327)" },
    ]);
    expect(codeName(table("wa"), "type", "SPIRITS/BR/WN REST LOUNGE +")).toEqual({
      name: "Spirits/beer/wine restaurant, lounge (+) (WSLCB privilege 424)",
    });
  });

  it("names Texas permit types by TABC's letters", () => {
    expect(codeName(table("tx"), "type", "MB")).toEqual({ name: "Mixed Beverage Permit" });
    expect(codeName(table("tx"), "type", "N")).toEqual({ name: "Private Club Registration Permit" });
    expect(codeName(table("tx"), "type", "RM")).toEqual({
      name: "Mixed Beverage Restaurant Permit with Food and Beverage Certificate",
    });
    expect(codeName(table("tx"), "type", "BG")).toEqual({ unknown: true });
  });

  it("names New York's classes and types as the SLA's files name them", () => {
    expect(codeName(table("ny"), "type", "OP")).toEqual({ name: "ON-PREMISES LIQUOR" });
    expect(codeName(table("ny"), "class", "252")).toEqual({ name: "ON-PREMISES LIQUOR / O.P. FOOD AND BEV" });
    expect(codeName(table("ny"), "class", "222")).toEqual({ name: "LIQUOR STORE" });
  });

  it("names New Jersey's license types by the number's type segment", () => {
    expect(codeName(table("nj"), "type", "31")).toEqual({ name: "Club License" });
    expect(codeName(table("nj"), "type", "33")).toEqual({ name: "Plenary Retail Consumption License" });
    expect(codeName(table("nj"), "type", "36")).toEqual({ name: "Hotel/Motel License" });
    expect(codeName(table("nj"), "type", "44")).toEqual({ name: "Plenary Retail Distribution License" });
  });

  it("names Massachusetts' license types and classes", () => {
    expect(codeName(table("ma"), "type", "RS")).toEqual({ name: "Restaurant" });
    expect(codeName(table("ma"), "type", "PK")).toEqual({
      name: "Package Store, Convenience Store, Supermarket or Gas Station",
    });
    expect(codeName(table("ma"), "class", "Seasonal")).toEqual({ name: "Seasonal license" });
  });

  it("names the District's classes and establishment types", () => {
    expect(codeName(table("dc"), "class", "C")).toEqual({ name: "Class C: on the premises, spirits, wine and beer" });
    expect(codeName(table("dc"), "type", "Tavern")).toEqual({
      name: "Tavern (on-premises retailer, class C/T or D/T)",
    });
    expect(codeName(table("dc"), "type", "Retail - Liquor Store")).toEqual({
      name: "Liquor store (off-premises retailer, class A)",
    });
  });

  it("names Kentucky's license types by the number's type segment", () => {
    expect(codeName(table("ky"), "type", "LP")).toEqual({
      name: "Quota Retail Package License (distilled spirits and wine by the package, off the premises; limited in number)",
    });
    expect(codeName(table("ky"), "type", "RS")).toEqual({
      name: "Special Sunday Retail Drink License (sales by the drink on Sundays)",
    });
    expect(codeName(table("ky"), "type", "CL")).toEqual({ name: "Caterer's License" });
  });

  it("names Michigan's license types and kinds, and each type of a license on two rows", () => {
    expect(codeNames(table("mi"), "type", "Class C, Specially Designated Merchant").map((c) => c.code)).toEqual([
      "Class C",
      "Specially Designated Merchant",
    ]);
    expect(codeName(table("mi"), "type", "Specially Designated Merchant")).toMatchObject({
      name: expect.stringContaining("(SDM): beer, wine and mixed spirit drink"),
    });
    expect(codeName(table("mi"), "class", "RDA")).toEqual({ name: "Redevelopment license (MCL 436.1521a(1)(a))" });
  });

  it("names Pennsylvania's license types by the number's letter prefix", () => {
    expect(codeName(table("pa"), "type", "R")).toEqual({ name: "Restaurant (Liquor)" });
    expect(codeName(table("pa"), "type", "E")).toEqual({ name: "Eating Place Retail Dispenser (Malt)" });
    expect(codeName(table("pa"), "type", "CC")).toEqual({ name: "Catering Club (Liquor)" });
    expect(codeName(table("pa"), "type", "D")).toEqual({ name: "Distributor (Malt)" });
    expect(codeName(table("pa"), "type", "H")).toEqual({ name: "Hotel (Liquor)" });
  });

  it("names Colorado's license types with their local authority, and Baltimore's classes", () => {
    expect(codeName(table("co"), "type", "Tavern (county)")).toEqual({
      name: "Tavern liquor license (beer, wine and spirits by the drink); licensed locally by a county as well as by the LED",
    });
    expect(codeName(table("md"), "class", "LBD7")).toEqual({
      name: "Class B-D-7 beer, wine and liquor: a tavern open seven days",
    });
    expect(codeName(table("md"), "type", "BW")).toEqual({ name: "Beer and light wine" });
  });

  it("says a code is unknown where the state's table does not name it", () => {
    expect(codeName(table("ca"), "type", "30")).toEqual({ unknown: true });
    expect(codeName(table("ca"), "class", "41")).toEqual({ unknown: true });
    expect(codeName(table("ny"), "type", "ZZ")).toEqual({ unknown: true });
    expect(codeName(table("nj"), "type", "")).toEqual({ unknown: true });
    expect(codeName(table("wy"), "type", "MB")).toEqual({ unknown: true });
  });
});
