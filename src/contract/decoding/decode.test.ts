import { describe, expect, it } from "vitest";
import { codeName, codeNames, statusCategory } from "./decode.ts";

describe("statusCategory", () => {
  it("decodes California's report codes and the words our service serves for them", () => {
    expect(statusCategory("ca", "ACTIVE")).toEqual({ category: "in force", words: "active" });
    expect(statusCategory("ca", "PEND")).toEqual({ category: "pending", words: "application pending" });
    expect(statusCategory("ca", "pending")).toEqual({ category: "pending", words: "application pending" });
    expect(statusCategory("ca", "new")).toEqual({ category: "pending", words: "new application" });
    expect(statusCategory("ca", "REVPEN")).toEqual({ category: "not in force", words: "revocation pending" });
    expect(statusCategory("ca", "revpen")).toEqual({ category: "not in force", words: "revocation pending" });
    expect(statusCategory("ca", "SUREND")).toEqual({ category: "not in force", words: "surrendered" });
    expect(statusCategory("ca", "surrendered")).toEqual({ category: "not in force", words: "surrendered" });
    expect(statusCategory("ca", "cancelled")).toEqual({ category: "not in force", words: "cancelled" });
    expect(statusCategory("ca", "suspended")).toEqual({ category: "not in force", words: "suspended" });
    expect(statusCategory("ca", "revoked")).toEqual({ category: "not in force", words: "revoked automatically" });
    expect(statusCategory("ca", "deprev")).toEqual({ category: "not in force", words: "revoked" });
    expect(statusCategory("ca", "r64b")).toEqual({
      category: "not in force",
      words: "under ABC rule 64(b) (meaning not published by ABC)",
    });
    // The importer serves NREN as "expired".
    expect(statusCategory("ca", "NREN")).toEqual({ category: "not in force", words: "not renewed" });
    expect(statusCategory("ca", "expired")).toEqual({ category: "not in force", words: "not renewed" });
    expect(statusCategory("ca", "WTHDRN")).toEqual({ category: "not in force", words: "application withdrawn" });
    expect(statusCategory("ca", "withdrawn")).toEqual({ category: "not in force", words: "application withdrawn" });
    expect(statusCategory("ca", "denied")).toEqual({ category: "not in force", words: "application denied" });
  });

  it("decodes New York's active list and its applications", () => {
    expect(statusCategory("ny", "active")).toEqual({
      category: "in force",
      words: "on the SLA's list of active licenses",
    });
    expect(statusCategory("ny", "pending")).toEqual({
      category: "pending",
      words: "application received, not yet decided",
    });
  });

  it("decodes New Jersey's inactive pocket licenses as not in force", () => {
    expect(statusCategory("nj", "active")).toEqual({ category: "in force", words: "active" });
    expect(statusCategory("nj", "inactive")).toEqual({
      category: "not in force",
      words: "inactive (a pocket license, not in use at any premises)",
    });
  });

  it("decodes Massachusetts' expiration status", () => {
    expect(statusCategory("ma", "Active")).toEqual({ category: "in force", words: "active" });
    expect(statusCategory("ma", "expired")).toEqual({ category: "not in force", words: "expired" });
  });

  it("ignores case and surrounding spaces, in the state and the status", () => {
    expect(statusCategory("CA", " Revpen ")).toEqual({ category: "not in force", words: "revocation pending" });
  });

  it("keeps a status it cannot decode as written, in the unknown category", () => {
    expect(statusCategory("ca", "SLMSHD")).toEqual({ category: "unknown", words: "SLMSHD" });
    expect(statusCategory("ny", "expired")).toEqual({ category: "unknown", words: "expired" });
    expect(statusCategory("tx", "active")).toEqual({ category: "unknown", words: "active" });
    expect(statusCategory("ca", "")).toEqual({ category: "unknown", words: "" });
  });
});

describe("codeName", () => {
  it("names California's license types by ABC's published numbers", () => {
    expect(codeName("ca", "type", "20")).toEqual({ name: "Off-Sale Beer & Wine" });
    expect(codeName("ca", "type", "21")).toEqual({ name: "Off-Sale General" });
    expect(codeName("ca", "type", "41")).toEqual({ name: "On-Sale Beer & Wine - Eating Place" });
    expect(codeName("ca", "type", "47")).toEqual({ name: "On-Sale General - Eating Place" });
    expect(codeName("ca", "type", "48")).toEqual({ name: "On-Sale General - Public Premises" });
    expect(codeName("ca", "type", "77")).toEqual({ name: "Event Permit" });
  });

  it("names each type of a California license that holds several", () => {
    expect(codeNames("ca", "type", "47, 58, 99x")).toEqual([
      { code: "47", name: "On-Sale General - Eating Place" },
      { code: "58", name: "Caterer's Permit" },
      { code: "99x", unknown: true },
    ]);
    expect(codeNames("ca", "type", "")).toEqual([]);
  });

  it("names New York's classes and types as the SLA's files name them", () => {
    expect(codeName("ny", "type", "OP")).toEqual({ name: "ON-PREMISES LIQUOR" });
    expect(codeName("ny", "class", "252")).toEqual({ name: "ON-PREMISES LIQUOR / O.P. FOOD AND BEV" });
    expect(codeName("ny", "class", "222")).toEqual({ name: "LIQUOR STORE" });
  });

  it("names New Jersey's license types by the number's type segment", () => {
    expect(codeName("nj", "type", "31")).toEqual({ name: "Club License" });
    expect(codeName("nj", "type", "33")).toEqual({ name: "Plenary Retail Consumption License" });
    expect(codeName("nj", "type", "36")).toEqual({ name: "Hotel/Motel License" });
    expect(codeName("nj", "type", "44")).toEqual({ name: "Plenary Retail Distribution License" });
  });

  it("names Massachusetts' license types and classes", () => {
    expect(codeName("ma", "type", "RS")).toEqual({ name: "Restaurant" });
    expect(codeName("ma", "type", "PK")).toEqual({
      name: "Package Store, Convenience Store, Supermarket or Gas Station",
    });
    expect(codeName("ma", "class", "Seasonal")).toEqual({ name: "Seasonal license" });
  });

  it("says a code is unknown where the state's table does not name it", () => {
    expect(codeName("ca", "type", "30")).toEqual({ unknown: true });
    expect(codeName("ca", "class", "41")).toEqual({ unknown: true });
    expect(codeName("ny", "type", "ZZ")).toEqual({ unknown: true });
    expect(codeName("nj", "type", "")).toEqual({ unknown: true });
    expect(codeName("tx", "type", "MB")).toEqual({ unknown: true });
  });
});
