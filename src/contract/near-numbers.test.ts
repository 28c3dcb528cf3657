import { describe, expect, it } from "vitest";
import { loadDecodingTable } from "./decoding/decode.ts";
import { nearNumbers } from "./near-numbers.ts";

// Each state's format as its decoding table gives it.
const formatOf = async (state: string) => (await loadDecodingTable(state))?.number?.format ?? null;
const NJ = await formatOf("nj");
const NY = await formatOf("ny");
const MA = await formatOf("ma");
const CA = await formatOf("ca");
const CO = await formatOf("co");

describe("nearNumbers", () => {
  it.each(["0101-33-5-3", "0101330050003", "010133005003", "0101 33 005 003", "0101-33-005-3", "0101.33.005.0003"])(
    "offers New Jersey's 0101-33-005-003 for %s",
    (given) => {
      expect(nearNumbers(given, NJ)).toEqual(["0101-33-005-003"]);
    },
  );

  it("puts back the leading zeros a spreadsheet stripped from a New York number", () => {
    expect(nearNumbers("12345", NY)).toEqual(["0012345"]);
    expect(nearNumbers(" 12345 ", NY)).toEqual(["0012345"]);
  });

  it.each(["780-RS-116", "780-rs-0116", "00780RS0116", "00780 rs 116"])(
    "offers Massachusetts' 00780-RS-0116 for %s",
    (given) => {
      expect(nearNumbers(given, MA)).toEqual(["00780-RS-0116"]);
    },
  );

  it.each(["3-10849", "0310849", "03 10849", "03.10849"])("offers Colorado's 03-10849 for %s", (given) => {
    expect(nearNumbers(given, CO)).toEqual(["03-10849"]);
  });

  it("asks for a Colorado number of before October 2018 only in the later form, which no such license has: it is found as written", () => {
    // 47-10504 is asked and not held, so never offered; 4710504 itself is the license.
    expect(nearNumbers("4710504", CO)).toEqual(["47-10504"]);
  });

  it("offers nothing for a number already in the state's format: it is the number, not a near one", () => {
    expect(nearNumbers("0101-33-005-003", NJ)).toEqual([]);
    expect(nearNumbers("0012345", NY)).toEqual([]);
    expect(nearNumbers("00780-RS-0116", MA)).toEqual([]);
  });

  it("offers nothing for letters in a digit slot, or digits in a letter slot", () => {
    expect(nearNumbers("0101-AB-005-003", NJ)).toEqual([]);
    expect(nearNumbers("12E45", NY)).toEqual([]);
    expect(nearNumbers("00780-12-0116", MA)).toEqual([]);
  });

  it("never drops a significant digit of a number with too many", () => {
    expect(nearNumbers("12345678", NY)).toEqual([]);
    expect(nearNumbers("0101-33-1005-003", NJ)).toEqual([]);
    expect(nearNumbers("0101330051003", NJ)).toEqual([]);
  });

  it("does not guess where the zeros go in a number written without separators and too short", () => {
    expect(nearNumbers("01013300503", NJ)).toEqual([]);
  });

  it("offers nothing for groups that do not fill the format's", () => {
    expect(nearNumbers("0101-33-005", NJ)).toEqual([]);
    expect(nearNumbers("0101-33-005-003-001", NJ)).toEqual([]);
    expect(nearNumbers("780-R-116", MA)).toEqual([]);
    expect(nearNumbers("007800116", MA)).toEqual([]);
  });

  it("offers nothing for an empty number or an unknown format", () => {
    expect(nearNumbers("", NJ)).toEqual([]);
    expect(nearNumbers(" - ", NJ)).toEqual([]);
    expect(nearNumbers("574903", null)).toEqual([]);
    expect(CA).toBeNull();
    expect(nearNumbers("0101-33-5-3", CA)).toEqual([]);
  });
});
