import { numberedStreets, streets } from "../demo-streets.ts";
import { deriveSeed } from "../seeded-random.ts";
import type { LicenseKind, Place, StateProfile } from "../state-profile.ts";
import { uniqueSerials } from "../unique-serials.ts";

// prettier-ignore
const DC_STREETS = streets([
  "U ST", "H ST", "K ST", "M ST", "P ST", "I ST", "L ST", "CONNECTICUT AVE", "WISCONSIN AVE", "PENNSYLVANIA AVE",
  "MASSACHUSETTS AVE", "FLORIDA AVE", "GEORGIA AVE", "RHODE ISLAND AVE", "NEW YORK AVE", "MAINE AVE", "WATER ST",
  "COLUMBIA RD", "BENNING RD", "MARTIN LUTHER KING JR AVE", "NEW JERSEY AVE", "VERMONT AVE", "BLADENSBURG RD",
  ...numberedStreets(1, 19, "ST"),
]);

// Most bars and restaurants sit in the Northwest quadrant.
const QUADRANTS = ["NW", "NW", "NW", "NW", "NW", "NE", "NE", "SE", "SW"];

// prettier-ignore
const place = (zip: [number, number], weight: number): Place => ({
  county: "DISTRICT OF COLUMBIA", city: "WASHINGTON", zip, areaCodes: ["202"], weight, streets: DC_STREETS, quadrants: QUADRANTS,
});

const PLACES: Place[] = [
  place([20001, 20012], 6),
  place([20015, 20020], 2),
  place([20024, 20024], 1.5),
  place([20036, 20037], 2),
  place([20032, 20032], 0.5),
];

// As ABRA's lists write them (server/data/sources/dc-abra): the class letter (C: spirits, wine and beer on
// the premises; D: wine and beer), the establishment type in the lists' words, and the license's
// name as the statute classes it (C/R: class C, restaurant).
// prettier-ignore
const KINDS: LicenseKind[] = [
  { type: "Restaurant", description: "Retailer C/R (Restaurant)", classes: ["C"], flavors: ["restaurant"], weight: 34 },
  { type: "Restaurant", description: "Retailer D/R (Restaurant)", classes: ["D"], flavors: ["restaurant"], weight: 8 },
  { type: "Tavern", description: "Retailer C/T (Tavern)", classes: ["C"], flavors: ["bar"], weight: 16 },
  { type: "Nightclub", description: "Retailer C/N (Nightclub)", classes: ["C"], flavors: ["bar"], weight: 4 },
  { type: "Hotel", description: "Retailer C/H (Hotel)", classes: ["C"], flavors: ["hotel"], weight: 4 },
  { type: "Multipurpose", description: "Retailer C/X (Multipurpose)", classes: ["C"], flavors: ["club", "bar"], weight: 2 },
  { type: "Retail - Liquor Store", description: "Retailer A (Retail - Liquor Store)", classes: ["A"], flavors: ["store"], weight: 12 },
  { type: "Retail - Grocery", description: "Retailer B (Retail - Grocery)", classes: ["B"], flavors: ["grocery"], weight: 18 },
  { type: "Manufacturer", description: "Manufacturer B", classes: ["B"], flavors: ["maker"], weight: 2 },
];

/** `ABRA-000559`: one district-wide six-digit sequence. */
export const dc: StateProfile = {
  code: "dc",
  places: PLACES,
  kinds: KINDS,
  termDays: 1095,
  numbering(seed) {
    const serials = uniqueSerials(1, 199_999, deriveSeed(seed, "dc"));
    return { next: (index) => `ABRA-${String(serials(index)).padStart(6, "0")}` };
  },
};
