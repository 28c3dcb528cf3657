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

// A DC license type is its class letter then its kind: CR is class C (all alcohol), restaurant.
// prettier-ignore
const KINDS: LicenseKind[] = [
  { type: "CR", description: "RETAILER CR - RESTAURANT", classes: ["C"], flavors: ["restaurant"], weight: 34 },
  { type: "DR", description: "RETAILER DR - RESTAURANT", classes: ["D"], flavors: ["restaurant"], weight: 8 },
  { type: "CT", description: "RETAILER CT - TAVERN", classes: ["C"], flavors: ["bar"], weight: 16 },
  { type: "CN", description: "RETAILER CN - NIGHTCLUB", classes: ["C"], flavors: ["bar"], weight: 4 },
  { type: "CH", description: "RETAILER CH - HOTEL", classes: ["C"], flavors: ["hotel"], weight: 4 },
  { type: "CX", description: "RETAILER CX - MULTIPURPOSE FACILITY", classes: ["C"], flavors: ["club", "bar"], weight: 2 },
  { type: "A", description: "RETAILER A - LIQUOR STORE", classes: ["A"], flavors: ["store"], weight: 12 },
  { type: "B", description: "RETAILER B - GROCERY", classes: ["B"], flavors: ["grocery"], weight: 18 },
  { type: "MB", description: "MANUFACTURER B - BREWERY", classes: ["MANUFACTURER"], flavors: ["maker"], weight: 2 },
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
