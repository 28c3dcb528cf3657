/**
 * USPS street suffixes and directionals (Publication 28), and numbered streets, so that
 * `30 WATER ST` and `30 Water Street`, `N MAIN` and `NORTH MAIN`, `1ST AVE` and `FIRST AVENUE` match.
 * Suffixes and directionals are kept in their long form (a typed `stre` still prefixes `street`);
 * numbered streets in their numeric form (`1st`), as addresses write them.
 */
const LONG_FORMS: Record<string, string[]> = {
  alley: ["aly", "ally"],
  avenue: ["ave", "av", "aven", "avn"],
  boulevard: ["blvd", "boul"],
  bridge: ["brg"],
  causeway: ["cswy"],
  center: ["ctr", "cntr"],
  circle: ["cir", "circ"],
  court: ["ct"],
  courts: ["cts"],
  crescent: ["cres"],
  crossing: ["xing"],
  drive: ["dr", "drv"],
  expressway: ["expy", "expwy"],
  extension: ["ext"],
  freeway: ["fwy"],
  heights: ["hts"],
  highway: ["hwy"],
  junction: ["jct"],
  lane: ["ln"],
  parkway: ["pkwy", "pky"],
  place: ["pl"],
  plaza: ["plz"],
  point: ["pt"],
  road: ["rd"],
  route: ["rte"],
  square: ["sq"],
  station: ["sta"],
  street: ["st", "str"],
  terrace: ["ter", "terr"],
  trail: ["trl"],
  turnpike: ["tpke"],
  way: ["wy"],
  north: ["n"],
  south: ["s"],
  east: ["e"],
  west: ["w"],
  northeast: ["ne"],
  northwest: ["nw"],
  southeast: ["se"],
  southwest: ["sw"],
};

// prettier-ignore
const ORDINALS = [
  "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
  "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
  "eighteenth", "nineteenth", "twentieth",
];

function ordinalSuffix(n: number): string {
  if (n % 100 >= 11 && n % 100 <= 13) return "th";
  return ["th", "st", "nd", "rd"][n % 10] ?? "th";
}

const CANONICAL = new Map<string, string>();
for (const [long, shorts] of Object.entries(LONG_FORMS)) for (const s of shorts) CANONICAL.set(s, long);
ORDINALS.forEach((word, i) => CANONICAL.set(word, `${i + 1}${ordinalSuffix(i + 1)}`));

/** The form a street word is indexed and compared in. */
export function canonicalStreetWord(word: string): string {
  return CANONICAL.get(word) ?? word;
}
