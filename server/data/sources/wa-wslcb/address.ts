import { zipCode, type Mends } from "../../import/fields.ts";
import type { SourceRecord } from "../source-adapter.ts";

export const WA_ADDRESS_REPAIRS = {
  zipPlusZeros: "ZIP+4 ending -0000 (no +4 known): written as the 5-digit ZIP",
  unitTwice: "the unit repeated as the second address line (6235 AIRPORT WAY S #100, #100): kept once",
  notInForm: "business location not in the WSLCB's form (street, unit, city, WA ZIP): kept whole as the first line",
} as const;

// "816 CENTRAL AVE S,  QUINCY, WA 98848-1356": the street, a comma, the unit (often none), the city, the state and ZIP.
const LOCATION = /^([^,]*),(.*),[\s\u00a0]*([A-Z]{2})[\s\u00a0]+(\d{5}(?:-\d{4})?)$/s;
// A unit (STE 101, UNIT C STE 105-A, #100, BLDG 3  UNIT 6) or a street's trailing direction (SE) before a city.
const UNIT_THEN_CITY =
  /^((?:(?:STE|SUITE|UNIT|BLDG|BDLG|APT|SPC|SPACE|RM|ROOM|FL|FLOOR)\s+[A-Z0-9][\w-]*\s+|#\s*[A-Z0-9][\w-]*\s+)+)(\S.*)$/;
const DIRECTION_THEN_CITY = /^(NE|NW|SE|SW)\s+(\S.*)$/;

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/**
 * A WSLCB business location as the contract's address. The notices of applications separate its
 * parts with non-breaking spaces, a change of location's with a line break too
 * (`81 PIT RD STE D,\u00a0STE D\n    \u00a0BREWSTER,\u00a0WA\u00a098812-9676`); the notices of approvals
 * and discontinuances with plain spaces, two where there is no unit (`11 MERCER ST,  SEATTLE, WA
 * 98109-4007`) and one between a unit and the city (`8459 MAIN ST  UNIT B, UNIT B DRYDEN`), where
 * the unit is told from the city by its words (STE, UNIT, BLDG, #). A location that fits neither is
 * kept whole as the first line, with a repair: the license is never dropped for it.
 */
export function wslcbLocation(text: string, row: Mends): SourceRecord["address"] {
  const parts = LOCATION.exec(text.trim());
  if (!parts) {
    row.repaired(WA_ADDRESS_REPAIRS.notInForm);
    return { line_1: oneLine(text), line_2: null, city: "", county: "", state: "WA", zip: "" };
  }
  const [, street = "", between = "", state = "", zip = ""] = parts;
  let line1 = oneLine(street);
  let unit = "";
  let city: string;
  if (between.includes("\u00a0")) {
    const pieces = between
      .split(/\s*\u00a0\s*/)
      .map(oneLine)
      .filter(Boolean);
    city = pieces.pop() ?? "";
    unit = pieces.join(" ");
  } else if (/^\s{2}/.test(between)) {
    city = oneLine(between);
  } else {
    const rest = oneLine(between);
    const withUnit = UNIT_THEN_CITY.exec(rest);
    const withDirection = DIRECTION_THEN_CITY.exec(rest);
    if (withUnit) [unit, city] = [oneLine(withUnit[1]!), withUnit[2]!];
    else if (withDirection) [line1, city] = [`${line1} ${withDirection[1]}`, withDirection[2]!];
    else city = rest;
  }
  if (unit && line1.endsWith(` ${unit}`)) {
    row.repaired(WA_ADDRESS_REPAIRS.unitTwice);
    unit = "";
  }
  if (zip.endsWith("-0000")) row.repaired(WA_ADDRESS_REPAIRS.zipPlusZeros);
  return {
    line_1: line1,
    line_2: unit || null,
    city,
    county: "",
    state,
    zip: zipCode(zip.replace(/-0000$/, ""), state, row),
  };
}
