/** A street as an address writes it: USPS short form (`WATER ST`) and long form (`WATER STREET`). */
export interface Street {
  short: string;
  long: string;
  /** Already carries a directional (`W 4TH ST`), so none is added. */
  directed: boolean;
}

const LONG_SUFFIX: Readonly<Record<string, string>> = {
  ST: "STREET",
  AVE: "AVENUE",
  BLVD: "BOULEVARD",
  RD: "ROAD",
  DR: "DRIVE",
  PL: "PLACE",
  LN: "LANE",
  PKWY: "PARKWAY",
  HWY: "HIGHWAY",
  TPKE: "TURNPIKE",
  SQ: "SQUARE",
  CT: "COURT",
  TER: "TERRACE",
};

const LONG_DIRECTION: Readonly<Record<string, string>> = { N: "NORTH", S: "SOUTH", E: "EAST", W: "WEST" };

export const DIRECTIONS = ["N", "S", "E", "W"] as const;
export const LONG_DIRECTIONS = DIRECTIONS.map((d) => LONG_DIRECTION[d]!);

/** Street records from their short forms: `["WATER ST", "W 4TH ST", "BROADWAY"]`. */
export function streets(shortForms: readonly string[]): Street[] {
  return shortForms.map((short) => {
    const words = short.split(" ");
    const first = words[0]!;
    const last = words[words.length - 1]!;
    const directed = words.length > 2 && Object.hasOwn(LONG_DIRECTION, first);
    if (directed) words[0] = LONG_DIRECTION[first]!;
    if (words.length > 1 && Object.hasOwn(LONG_SUFFIX, last)) words[words.length - 1] = LONG_SUFFIX[last]!;
    return { short, long: words.join(" "), directed };
  });
}

/** `1ST`, `2ND`, `3RD`, `11TH`, `22ND`: street numbers as signs and state exports spell them. */
export function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? "TH" : (["TH", "ST", "ND", "RD"][n % 10] ?? "TH");
  return `${n}${suffix}`;
}

/** Numbered streets from `from` to `to`, each once per directional given (or once without). */
export function numberedStreets(
  from: number,
  to: number,
  suffix: string,
  directions: readonly string[] = [],
): string[] {
  const out: string[] = [];
  for (let n = from; n <= to; n++) {
    if (directions.length === 0) out.push(`${ordinal(n)} ${suffix}`);
    for (const d of directions) out.push(`${d} ${ordinal(n)} ${suffix}`);
  }
  return out;
}

/** Street names found in nearly every American town. */
// prettier-ignore
export const TOWN_STREETS = [
  "MAIN ST", "CHURCH ST", "MARKET ST", "WASHINGTON ST", "PARK AVE", "ELM ST", "OAK ST", "MAPLE AVE",
  "CENTRAL AVE", "BROAD ST", "HIGH ST", "WATER ST", "FRONT ST", "MILL ST", "UNION ST", "SPRING ST",
  "CENTER ST", "LAKE ST", "RIVER RD", "HILLSIDE AVE", "COLLEGE AVE", "FRANKLIN ST", "JEFFERSON AVE",
  "LINCOLN AVE", "MADISON AVE", "PLEASANT ST", "CHESTNUT ST", "BRIDGE ST", "STATE ST", "GRAND AVE",
  "1ST ST", "2ND ST", "3RD ST", "4TH ST", "5TH AVE",
];
