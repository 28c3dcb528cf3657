import { isStateCode } from "../../import/fields.ts";

// The DOR list's premises address is one string with no commas, "STREET CITY ST ZIP"
// (931 MONROE DR NE STE B114 ATLANTA GA 30308-1796). Its state and ZIP end it; where the street ends
// and the city begins nothing marks, and a city's own words can be street words (COLLEGE PARK,
// FLOWERY BRANCH, ST SIMONS ISLAND). So the city is told by the file itself: the words its
// addresses end with after a street word (a suffix, a directional, a number, a unit), counted over
// its distinct addresses (CityWords).

/** An address's words before its state, its state, and its ZIP as written. */
export interface Place {
  words: string[];
  state: string;
  zip: string;
}

// A ZIP as written (12345, 12345-6789, and what a spreadsheet makes of one: 4 or 9 digits) is checked by fields.ts.
const TAIL = /^(.+?) ([A-Z]{2}) (\d{4,5}(?:-?\d{4})?)$/;

/** The words, state and ZIP of an address that ends in a US state and ZIP; null for one that does not (premises abroad). */
export function placeOf(text: string): Place | null {
  const tail = TAIL.exec(text.replace(/\s+/g, " "));
  return tail && isStateCode(tail[2]!) ? { words: tail[1]!.split(" "), state: tail[2]!, zip: tail[3]! } : null;
}

// USPS street suffixes (Publication 28) and the spellings the list uses, that end a street's name.
// prettier-ignore
const STREET_WORDS = new Set([
  "ALY", "ALLEY", "AV", "AVE", "AVENUE", "BLV", "BLVD", "BOULEVARD", "BV", "BVLD", "BND", "BR", "BRANCH", "BRG",
  "BRIDGE", "BROADWAY", "BYP", "BYPASS", "CIR", "CIRCLE", "CMNS", "COMMONS", "CONNECTOR", "COURT", "COVE", "CRES",
  "CROSSING", "CT", "CTR", "CENTER", "CV", "DR", "DRIVE", "EXPRESSWAY", "EXPWY", "EXPY", "EXT", "FREEWAY", "FWY",
  "GRN", "HIGHWAY", "HL", "HTS", "HWAY", "HWY", "JCT", "LANE", "LK", "LN", "LOOP", "PARKWAY", "PASS", "PATH",
  "PIKE", "PKWY", "PKY", "PL", "PLACE", "PLAZA", "PLZ", "POINT", "PT", "PY", "RD", "ROAD", "ROUTE", "ROW", "RTE",
  "RUN", "SPGS", "SQ", "SQUARE", "ST", "STA", "STREET", "TER", "TERR", "TERRACE", "TPKE", "TRACE", "TRAIL",
  "TRCE", "TRL", "WALK", "WAY", "WY", "XING", "XRD",
]);
const DIRECTIONS = new Set(["N", "S", "E", "W", "NE", "NW", "SE", "SW"]);
// A unit's word: the word after it (STE A, # 101) ends the street too.
const UNIT_WORDS = new Set([
  "#",
  "APT",
  "BLDG",
  "BOX",
  "BUILDING",
  "FL",
  "FLOOR",
  "FLR",
  "LOT",
  "RM",
  "ROOM",
  "SPACE",
  "SPC",
  "STE",
  "SUITE",
  "UNIT",
]);
// Street words that also begin city names: ST MARYS, FT GAINES, MT AIRY, PT WENTWORTH.
const CITY_STARTS = new Set(["ST", "FT", "MT", "PT"]);
/** The most words a city takes (SAINT SIMONS ISLAND, PINE MOUNTAIN VALLEY are three). */
const MOST_CITY_WORDS = 4;
/** How many distinct addresses must end in a phrase after a street word for it to be taken as a city wherever it ends one. */
const KNOWN = 3;

const bare = (word: string) => word.replace(/[.,]+$/, "");
const isStreetWord = (word: string) => STREET_WORDS.has(bare(word)) || DIRECTIONS.has(bare(word));

/** Whether the word at `i` ends a street: a suffix, a directional, a number (a house or highway number), a unit. */
function endsStreet(words: readonly string[], i: number): boolean {
  const word = words[i]!;
  return (
    isStreetWord(word) || /\d/.test(word) || word.startsWith("#") || (i > 0 && UNIT_WORDS.has(bare(words[i - 1]!)))
  );
}

/**
 * Whether words can be a city: letters only (no number, #, &, @, /, parenthesis); not starting with a
 * directional, a lone letter, or a street word other than ST, FT, MT, PT; no street word inside.
 */
function cityLike(words: readonly string[]): boolean {
  if (words.length === 0 || words.some((word) => /[\d#&@/()]/.test(word))) return false;
  const first = bare(words[0]!);
  if (DIRECTIONS.has(first) || first.length === 1) return false;
  if (isStreetWord(first) && !CITY_STARTS.has(first)) return false;
  return !words.slice(1, -1).some((word) => isStreetWord(word) || UNIT_WORDS.has(bare(word)));
}

/**
 * Where the city begins by the address alone: after its last street word, but ST, FT, MT, PT after
 * another street word begin the city (OSBORNE RD ST MARYS; not 3RD ST DONALSONVILLE); null if the
 * rest is no city.
 */
function afterStreet(words: readonly string[]): number | null {
  for (let i = words.length - 2; i >= 0; i--) {
    if (!endsStreet(words, i)) continue;
    const start = CITY_STARTS.has(bare(words[i]!)) && (i === 0 || isStreetWord(words[i - 1]!)) ? i : i + 1;
    return cityLike(words.slice(start)) ? start : null;
  }
  return null;
}

const phrase = (words: readonly string[]) => words.map(bare).join(" ");

/**
 * The cities a file's addresses name, learnt from the file: each distinct address counts the words
 * after its last street word, in its state and in its ZIP. An address's city is then the shortest
 * phrase ending it that at least KNOWN addresses of its state end with after a street word (ATLANTA
 * for "... PEACHTREE ST NE HYATT REG ATLANTA"), taken longer while the longer phrase holds in its
 * ZIP (EAST DUBLIN in 31027, not PIEDMONT PARK ATLANTA in 30309); else the words after its own last
 * street word; else none.
 */
export class CityWords {
  private readonly seen = new Set<string>();
  private readonly inState = new Map<string, number>();
  private readonly inZip = new Map<string, number>();

  add(place: Place): void {
    const key = `${place.state} ${place.zip} ${place.words.join(" ")}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const start = afterStreet(place.words);
    if (start === null) return;
    const city = phrase(place.words.slice(start));
    bump(this.inState, `${place.state} ${city}`);
    bump(this.inZip, `${place.zip.slice(0, 5)} ${city}`);
  }

  /** Where the city begins among the place's words (0: the address is a city alone); null when no city is told. */
  cityStart(place: Place): number | null {
    const { words } = place;
    const zip = place.zip.slice(0, 5);
    let start: number | null = null;
    for (let n = 1; n <= Math.min(MOST_CITY_WORDS, words.length); n++) {
      const at = words.length - n;
      const city = words.slice(at);
      if (!cityLike(city) || (this.inState.get(`${place.state} ${phrase(city)}`) ?? 0) < KNOWN) continue;
      const inZip = (from: number) => this.inZip.get(`${zip} ${phrase(words.slice(from))}`) ?? 0;
      if (start === null || inZip(at) * 2 >= inZip(start)) start = at;
    }
    return start ?? afterStreet(words);
  }
}

function bump(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}
