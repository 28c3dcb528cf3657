import { describe, expect, it } from "vitest";
import { dateOrEmpty, isStateCode, zipCode, zipStates, ZIP_REPAIRS } from "./fields.ts";

/** A ZIP as zipCode reads it, with the repairs it noted. */
function zip(text: string, state: string) {
  const repairs: string[] = [];
  const value = zipCode(text, state, { repaired: (reason) => repairs.push(reason) });
  return { value, repairs };
}

describe("zipCode", () => {
  it("keeps a 5-digit ZIP and a ZIP+4, and gives nine bare digits their dash, with nothing to report", () => {
    expect(zip("02351", "MA")).toEqual({ value: "02351", repairs: [] });
    expect(zip("01945-3637", "MA")).toEqual({ value: "01945-3637", repairs: [] });
    expect(zip("100168132", "NY")).toEqual({ value: "10016-8132", repairs: [] });
    expect(zip("", "NY")).toEqual({ value: "", repairs: [] });
  });

  it("puts back the leading 0 a spreadsheet dropped, only where every ZIP starts with 0", () => {
    expect(zip("2766", "MA")).toEqual({ value: "02766", repairs: [ZIP_REPAIRS.leadingZero] });
    expect(zip("7302", "NJ")).toEqual({ value: "07302", repairs: [ZIP_REPAIRS.leadingZero] });
    // New York's ZIPs start with 1: a 4-digit one lost a digit nobody can tell.
    expect(zip("1238", "NY")).toEqual({ value: "", repairs: [ZIP_REPAIRS.unusable] });
    // Already starting with 0, it lost its last digit, not its first.
    expect(zip("0247", "MA")).toEqual({ value: "", repairs: [ZIP_REPAIRS.unusable] });
  });

  it("leaves empty, with a reason, a ZIP of the wrong length or of another part of the country", () => {
    expect(zip("015404", "MA")).toEqual({ value: "", repairs: [ZIP_REPAIRS.unusable] });
    expect(zip("694", "NY")).toEqual({ value: "", repairs: [ZIP_REPAIRS.unusable] });
    expect(zip("20540", "MA")).toEqual({ value: "", repairs: [ZIP_REPAIRS.otherState] });
    expect(zip("99999", "MA")).toEqual({ value: "", repairs: [ZIP_REPAIRS.otherState] });
  });

  it("keeps a ZIP across a nearby state line: border towns are served by the neighbour's post office", () => {
    // 00020-RS-0086, Bellingham MA, on Woonsocket RI's 02895.
    expect(zip("02895", "MA")).toEqual({ value: "02895", repairs: [] });
    expect(zip("06390", "NY")).toEqual({ value: "06390", repairs: [] });
  });

  it("drops a stray letter after five digits", () => {
    expect(zip("01940A", "MA")).toEqual({ value: "01940", repairs: [ZIP_REPAIRS.strayLetter] });
  });
});

describe("state codes and ZIP prefixes", () => {
  it("knows every state and DC, and no typo", () => {
    const states =
      "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND " +
      "OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR";
    expect(states.split(" ").filter((s) => !isStateCode(s))).toEqual([]);
    expect(["M", "MQA", "STREET", "11", "XX"].filter(isStateCode)).toEqual([]);
  });

  it("places a ZIP in its state", () => {
    expect(zipStates("95472")).toEqual(["CA"]);
    expect(zipStates("11694")).toEqual(["NY"]);
    expect(zipStates("02108")).toEqual(["MA"]);
    expect(zipStates("1238")).toEqual([]);
  });
});

describe("dateOrEmpty", () => {
  it("reads a date; a cell that holds none is null and a repair, not a lost license", () => {
    const repairs: string[] = [];
    const row = { repaired: (reason: string) => repairs.push(reason) };
    expect(dateOrEmpty("01/30/2013", "issue date", ["us"], row)).toBe("2013-01-30");
    expect(dateOrEmpty("", "issue date", ["us"], row)).toBeNull();
    expect(repairs).toEqual([]);
    expect(dateOrEmpty("13/45/2010", "issue date", ["us"], row)).toBeNull();
    expect(repairs).toEqual(["unreadable issue date: left empty"]);
  });
});
