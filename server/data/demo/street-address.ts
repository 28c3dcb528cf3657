import { DIRECTIONS, LONG_DIRECTIONS, type Street } from "./demo-streets.ts";
import type { Place } from "./state-profile.ts";
import type { SeededRandom } from "./seeded-random.ts";

/** Share of addresses that spell the suffix out (`WATER STREET`), as hand-keyed exports do. */
const LONG_FORM_SHARE = 0.25;
const LINE_2_SHARE = 0.1;

const LINE_2 = [
  "1ST FLOOR",
  "2ND FLOOR",
  "GROUND FLOOR",
  "BASEMENT",
  "REAR",
  "STORE 1",
  "STORE 2",
  "UNIT A",
  "UNIT B",
  "UNIT 3",
  "STE 4",
  "SUITE 100",
  "SUITE 200",
  "SUITE 305",
  "MEZZANINE",
  "ROOFTOP",
  "LOBBY LEVEL",
  "CONCOURSE C",
  "TERMINAL B",
  "PIER 17",
];

/** `30 WATER ST`, `1200 N MAIN STREET`, `88-08 ROOSEVELT AVE`, `1400 14TH ST NW`. */
export function addressLine1(rng: SeededRandom, place: Place, street: Street): string {
  const long = rng.chance(LONG_FORM_SHARE);
  let name = long ? street.long : street.short;
  if (!street.directed && place.directionalShare !== undefined && rng.chance(place.directionalShare)) {
    const d = rng.int(0, 3);
    // Exports mix forms freely: `1200 N MAIN STREET` sits beside `NORTH MAIN ST`.
    name = `${rng.chance(0.8) ? DIRECTIONS[d] : LONG_DIRECTIONS[d]} ${name}`;
  }
  if (place.quadrants) name = `${name} ${rng.pick(place.quadrants)}`;
  return `${houseNumber(rng, place)} ${name}`;
}

/** Null for most; a floor, suite or unit for about one in ten. */
export function addressLine2(rng: SeededRandom): string | null {
  return rng.chance(LINE_2_SHARE) ? rng.pick(LINE_2) : null;
}

export function zipCode(rng: SeededRandom, place: Place): string {
  return String(rng.int(place.zip[0], place.zip[1])).padStart(5, "0");
}

function houseNumber(rng: SeededRandom, place: Place): string {
  if (place.hyphenatedNumbers) return `${rng.int(10, 250)}-${String(rng.int(1, 99)).padStart(2, "0")}`;
  const band = rng.next();
  if (band < 0.35) return String(rng.int(1, 99));
  if (band < 0.8) return String(rng.int(100, 999));
  return String(rng.int(1000, 9999));
}
