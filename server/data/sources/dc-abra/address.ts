import { isStateCode, zipCode, zipStates, type Mends } from "../../import/fields.ts";
import type { SourceRecord } from "../source-adapter.ts";

// A DC premises address in one form whatever the year wrote: ABRA's lists split it into street
// number, name, type, quadrant, unit and ZIP (2005-2010, 2014), or give it as one cell on two lines
// ("527 14TH ST NW A\nWashington, DC 20004", 2011-2014) or on one ("331 PENNSYLVANIA AVE SE, #A,
// WASHINGTON, DC 20003", 2015-2016). A later step compares a license's address list to list, so
// every spelling of one place must come out the same: "527 14TH ST NW", the unit as line 2 ("#A").

export type Address = SourceRecord["address"];

/** The parts of a split address, as the 2005-2010 and 2014 lists give them. */
export interface AddressParts {
  number: string;
  /** The street's name, with its type in 2005 ("14TH ST"). */
  street: string;
  type: string;
  quadrant: string;
  unit: string;
  /** "Washington, DC", "Cabin John, Maryland"; "" where the list has no such column. */
  cityState: string;
  zip: string;
}

const QUADRANTS = new Set(["NW", "NE", "SE", "SW"]);
const QUADRANT_END = / (NW|NE|SE|SW)$/;

// USPS street suffixes, as ABRA abbreviates them (an alley is ABRA's AL).
const STREET_TYPES: Readonly<Record<string, string>> = {
  STREET: "ST",
  AVENUE: "AVE",
  ROAD: "RD",
  BOULEVARD: "BLVD",
  PLACE: "PL",
  PLAZA: "PLZ",
  CIRCLE: "CIR",
  COURT: "CT",
  DRIVE: "DR",
  LANE: "LN",
  ALLEY: "AL",
  HIGHWAY: "HWY",
  TERRACE: "TER",
  PARKWAY: "PKWY",
};
const TYPE_WORDS = new Set([...Object.values(STREET_TYPES), "WAY", "SQ"]);

const STATE_NAMES: Readonly<Record<string, string>> = {
  "DISTRICT OF COLUMBIA": "DC",
  MARYLAND: "MD",
  VIRGINIA: "VA",
  TEXAS: "TX",
};

export const ADDRESS_REPAIRS = {
  zipNone: "ZIP written as 0: left empty",
  macArthur:
    "MACARTHUR BLVD N: quadrant taken as NW (MacArthur Boulevard lies in Northwest only; the 2011-2012 lists cut it to N)",
} as const;

/** A split address (2005-2010, April and August 2014) in the one form. */
export function addressFromParts(parts: AddressParts, row: Mends): Address {
  // A spreadsheet's 331.5 is the 331 1/2 the one-cell addresses write.
  const number = parts.number.replace(/^(\d+)\.5$/, "$1 1/2");
  const { line_1, unit } = streetLine([number, parts.street, parts.type, parts.quadrant, parts.unit].join(" "), row);
  const place = parts.cityState === "" ? null : cityAndState(parts.cityState.replace(/,?\s*$/, ""));
  return finish(line_1, unit, place, parts.zip, row);
}

/**
 * A one-cell address (2011-2016) in the one form. A line "City, ST ZIP" starts the city part; any
 * other line break only wraps the street (the August 2013 list, made from a PDF).
 */
export function addressFromText(text: string, row: Mends, zipColumn = ""): Address {
  const joined = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .reduce((all, line) => (all === "" ? line : CITY_LINE.test(line) ? `${all}, ${line}` : `${all} ${line}`), "");
  const written = plain(joined);
  const uncommaed = STATE_AND_ZIP_UNCOMMAED.exec(written);
  const state = STATE_AND_ZIP.exec(written) ?? (uncommaed && isStateCode(uncommaed[2]!) ? uncommaed : null);
  const rest = state ? state[1]! : written;
  const parts = rest
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  let street = parts[0] ?? "";
  let place: { city: string; state: string } | null = null;
  let units = parts.slice(1);
  if (state) {
    // "Washington, on 20002": a state that is none is left to the ZIP (or the city) to say.
    const stateCode = isStateCode(state[2]!) ? state[2]! : "";
    if (parts.length >= 2) {
      place = cityAndState(`${parts.at(-1)!}, ${stateCode}`);
      units = parts.slice(1, -1);
    } else if (/(^| )WASHINGTON$/.test(street)) {
      // "1500 MASSACHUSETTS AVE SE Washington, DC 20003": no comma before the city.
      street = street.replace(/(^| )WASHINGTON$/, "");
      place = { city: "WASHINGTON", state: stateCode || "DC" };
    } else {
      place = { city: "", state: stateCode };
    }
  }
  const line = streetLine(street, row);
  const unit = units.map(unitOf).find(Boolean) ?? line.unit;
  return finish(line.line_1, unit, place, state?.[3] ?? zipColumn, row);
}

const CITY_LINE = /^[A-Za-z .']+,\s*[A-Za-z .]+,?\s*(\d[\d-]*)?$/;
const STATE_AND_ZIP = /^(.*?),\s*([A-Z]{2})(?:\s+(\d[\d-]*))?$/;
// "Bethesda MD 20816": a state without its comma, only before a ZIP and never a quadrant ("ST NE").
const STATE_AND_ZIP_UNCOMMAED = /^(.*?[A-Z]{3,})\s+(?!NE|NW|SE|SW)([A-Z]{2})\s+(\d[\d-]*)$/;

/** The address once its street line, unit, city, state and ZIP are known. */
function finish(
  line_1: string,
  unit: string | null,
  place: { city: string; state: string } | null,
  zipText: string,
  row: Mends,
): Address {
  const zipWritten = zipText.trim();
  if (zipWritten === "0") row.repaired(ADDRESS_REPAIRS.zipNone);
  const bare = zipWritten === "0" ? "" : zipWritten;
  // A list names a place outside the District (a caterer's kitchen, a ship's dock) by its city and
  // state, or only by its ZIP; a street with a quadrant is in the District. With none of these the
  // place is not known: the state is DC, where ABRA licenses, and the city is left empty.
  const state = place?.state || zipStates(bare)[0] || "DC";
  const inDistrict =
    state === "DC" && (place?.state === "DC" || zipStates(bare)[0] === "DC" || QUADRANT_END.test(line_1));
  return {
    line_1,
    line_2: unit === null ? null : `#${unit}`,
    city: inDistrict ? "WASHINGTON" : state === "DC" ? "" : (place?.city ?? ""),
    county: inDistrict ? "DISTRICT OF COLUMBIA" : "",
    state,
    zip: zipCode(bare, state, row).slice(0, 5),
  };
}

/** "Washington, DC", "Cabin John, Maryland", "Falls Church": the city and the state's code. */
function cityAndState(text: string): { city: string; state: string } {
  const written = plain(text);
  const comma = written.lastIndexOf(",");
  const city = (comma < 0 ? written : written.slice(0, comma)).trim();
  const stateText = comma < 0 ? "" : written.slice(comma + 1).trim();
  const state = STATE_NAMES[stateText] ?? (isStateCode(stateText) ? stateText : "");
  if (city === "WASHINGTON" && state === "") return { city, state: "DC" };
  return { city, state };
}

/**
 * A street line in the one form: "527 14TH ST NW", its unit apart ("A" of "1100 NEW YORK AVE NW A",
 * and of "1805 A 14TH ST NW", where the later lists put it after the house number). Street types
 * abbreviated (STREET → ST), a type written twice once ("Connecticut Avenue AVE"), a numbered street
 * given its ordinal (525 14 ST → 525 14TH ST), Martin Luther King Jr and Nannie Helen Burroughs
 * written out, Mount as MT, a range of house numbers as its first (5618 - 5626 → 5618).
 */
export function streetLine(text: string, row: Mends): { line_1: string; unit: string | null } {
  let written = plain(text)
    .replace(/\s*-\s*/g, "-")
    // A range of house numbers as its first: the 2014 and 2016 lists give no ranges.
    .replace(/^(\d+)(?: ?[A-Z])?-\d+[A-Z]?\b/, "$1")
    .replace(/\b(M ?L|MARTIN L) KING\b/g, "MARTIN LUTHER KING")
    .replace(/\bN ?H BURROUGHS\b/g, "NANNIE HELEN BURROUGHS")
    .replace(/\bMOUNT\b/g, "MT");
  if (/\bMACARTHUR (BLVD|BOULEVARD) N\b(?!\w)/.test(written)) {
    row.repaired(ADDRESS_REPAIRS.macArthur);
    written = written.replace(/\bMACARTHUR (BLVD|BOULEVARD) N\b/, "MACARTHUR $1 NW");
  }
  const words = written
    .split(" ")
    .filter((w) => w !== "" && w !== "-")
    .map((w) => STREET_TYPES[w] ?? w)
    .filter((w, i, all) => !(TYPE_WORDS.has(w) && all[i + 1] === w));
  // "525 14 ST": the street right after the house number is a numbered one.
  if (words.length > 2 && /^\d+$/.test(words[1]!) && TYPE_WORDS.has(words[2]!)) words[1] = ordinal(words[1]!);
  let letter: string | null = null;
  // A letter between the house number and a one-word street ("1805 A 14TH ST"); not a lettered
  // street ("550 C ST"), North, South or East Capitol ("1 N CAPITOL ST"), nor "476 K 2ND FLOOR ST".
  if (
    words.length > 3 &&
    /^\d/.test(words[0]!) &&
    /^[A-DF-MO-RT-Z]$/.test(words[1]!) &&
    !TYPE_WORDS.has(words[2]!) &&
    TYPE_WORDS.has(words[3]!)
  ) {
    letter = words.splice(1, 1)[0]!;
  }
  let quadrant = -1;
  words.forEach((w, i) => {
    if (QUADRANTS.has(w)) quadrant = i;
  });
  if (quadrant < 0) return { line_1: words.join(" "), unit: letter };
  const unit = unitOf(words.slice(quadrant + 1).join(" ")) ?? letter;
  return { line_1: words.slice(0, quadrant + 1).join(" "), unit };
}

/** A unit in one form, without its designator: "#A", "STE 1", "UNIT 120", "00303" → A, 1, 120, 303. */
function unitOf(text: string): string | null {
  const unit = plain(text)
    .replace(/^(#+\s*|(STE|SUITE|UNIT|APT)\b\s*#*\s*)+/, "")
    .replace(/^0+(?=[0-9A-Z])/, "")
    .trim();
  return unit === "" ? null : unit;
}

function ordinal(number: string): string {
  const n = Number(number);
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? "TH" : (["TH", "ST", "ND", "RD"][n % 10] ?? "TH");
  return `${number}${suffix}`;
}

/** Upper case, one space between words, plain hyphens; full stops and doubled apostrophes gone. */
function plain(text: string): string {
  return text
    .toUpperCase()
    .replace(/[\u2010-\u2015]/g, "-")
    .replace(/''/g, "'")
    .replace(/\bJR\.?,/g, "JR")
    .replace(/\./g, " ")
    .replace(/\s+/g, " ")
    .trim();
}
