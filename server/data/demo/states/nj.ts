import { streets, TOWN_STREETS } from "../demo-streets.ts";
import type { LicenseKind, Place, StateProfile } from "../state-profile.ts";

/** A New Jersey municipality with its four-digit code: county then municipality, both alphabetical. */
interface Municipality extends Place {
  code: string;
}

/** Municipal serials run 001-999; past that the generation number carries the overflow. */
const SERIALS_PER_GENERATION = 999;
/** Generation numbers for ordinary licenses run 001 to this; higher ones mark overflow. */
const MAX_ORDINARY_GENERATION = 9;

// prettier-ignore
const SHORE = streets([
  ...TOWN_STREETS, "OCEAN AVE", "PACIFIC AVE", "ATLANTIC AVE", "BOARDWALK", "ROUTE 9", "ROUTE 35", "COOKMAN AVE",
  "NEW JERSEY AVE", "WASHINGTON ST MALL",
]);
// prettier-ignore
const NORTH = streets([
  ...TOWN_STREETS, "BLOOMFIELD AVE", "FERRY ST", "NEWARK AVE", "PALISADE AVE", "KENNEDY BLVD", "BERGEN AVE",
  "SPRINGFIELD AVE", "STUYVESANT AVE", "ELIZABETH AVE", "MONMOUTH ST", "MORRIS ST", "HALSEY ST", "MARKET ST",
]);
const CENTRAL = streets([...TOWN_STREETS, "NASSAU ST", "GEORGE ST", "EASTON AVE", "ROUTE 1", "ROUTE 38", "HADDON AVE"]);

const municipality = (
  county: string,
  city: string,
  code: string,
  zip: [number, number],
  areaCodes: string[],
  weight: number,
  streetList = NORTH,
): Municipality => ({ county, city, code, zip, areaCodes, weight, streets: streetList });

// Codes follow the ABC's scheme (Plainfield is 2012: Union 20, Plainfield 12); most are modelled, not looked up.
// prettier-ignore
const PLACES: Municipality[] = [
  municipality("ATLANTIC", "ATLANTIC CITY", "0102", [8401, 8401], ["609"], 5, SHORE),
  municipality("BERGEN", "HACKENSACK", "0223", [7601, 7602], ["201", "551"], 2),
  municipality("BERGEN", "FORT LEE", "0219", [7024, 7024], ["201"], 1.5),
  municipality("BERGEN", "ENGLEWOOD", "0215", [7631, 7631], ["201"], 1),
  municipality("CAMDEN", "CAMDEN", "0408", [8101, 8105], ["856"], 2, CENTRAL),
  municipality("CAMDEN", "CHERRY HILL", "0409", [8002, 8003], ["856"], 2, CENTRAL),
  municipality("CAPE MAY", "CAPE MAY", "0502", [8204, 8204], ["609"], 1, SHORE),
  municipality("CAPE MAY", "WILDWOOD", "0514", [8260, 8260], ["609"], 1.5, SHORE),
  municipality("ESSEX", "NEWARK", "0714", [7102, 7114], ["973", "862"], 7),
  municipality("ESSEX", "MONTCLAIR", "0713", [7042, 7043], ["973"], 2),
  municipality("HUDSON", "JERSEY CITY", "0906", [7302, 7311], ["201", "551"], 6),
  municipality("HUDSON", "HOBOKEN", "0905", [7030, 7030], ["201"], 4),
  municipality("MERCER", "TRENTON", "1111", [8608, 8611], ["609"], 2, CENTRAL),
  municipality("MERCER", "PRINCETON", "1114", [8540, 8542], ["609"], 1.5, CENTRAL),
  municipality("MIDDLESEX", "NEW BRUNSWICK", "1213", [8901, 8901], ["732", "848"], 2.5, CENTRAL),
  municipality("MONMOUTH", "ASBURY PARK", "1304", [7712, 7712], ["732"], 2, SHORE),
  municipality("MONMOUTH", "RED BANK", "1339", [7701, 7701], ["732"], 1.5, SHORE),
  municipality("MORRIS", "MORRISTOWN", "1424", [7960, 7960], ["973"], 2),
  municipality("OCEAN", "TOMS RIVER", "1508", [8753, 8757], ["732"], 2, SHORE),
  municipality("OCEAN", "POINT PLEASANT BEACH", "1526", [8742, 8742], ["732"], 1, SHORE),
  municipality("PASSAIC", "PATERSON", "1608", [7501, 7514], ["973"], 3),
  municipality("UNION", "ELIZABETH", "2004", [7201, 7208], ["908"], 3),
  municipality("UNION", "PLAINFIELD", "2012", [7060, 7063], ["908"], 1.5),
  municipality("SUSSEX", "NEWTON", "1915", [7860, 7860], ["973"], 0.5, CENTRAL),
  municipality("WARREN", "PHILLIPSBURG", "2119", [8865, 8865], ["908"], 0.5, CENTRAL),
];

// prettier-ignore
const KINDS: LicenseKind[] = [
  { type: "33", description: "PLENARY RETAIL CONSUMPTION", classes: ["C"], flavors: ["bar", "restaurant"], weight: 46 },
  { type: "32", description: "PLENARY RETAIL CONSUMPTION WITH BROAD PACKAGE PRIVILEGE", classes: ["C"], flavors: ["bar", "store"], weight: 8 },
  { type: "44", description: "PLENARY RETAIL DISTRIBUTION", classes: ["C"], flavors: ["store"], weight: 26 },
  { type: "31", description: "CLUB", classes: ["C"], flavors: ["club"], weight: 10 },
  { type: "36", description: "PLENARY RETAIL CONSUMPTION (HOTEL/MOTEL)", classes: ["C"], flavors: ["hotel"], weight: 4 },
  { type: "34", description: "SEASONAL RETAIL CONSUMPTION", classes: ["C"], flavors: ["bar", "restaurant"], weight: 3 },
  { type: "18", description: "PLENARY WINERY", classes: ["A"], flavors: ["maker"], weight: 1.5 },
  { type: "11", description: "LIMITED BREWERY", classes: ["A"], flavors: ["maker"], weight: 1.5 },
];

/**
 * `0101-33-005-003`: municipality, license type, the municipality's serial for that type, and the
 * generation number (how many times the license has changed hands or premises).
 */
export const nj: StateProfile<Municipality> = {
  code: "nj",
  places: PLACES,
  kinds: KINDS,
  termDays: 365,
  numbering() {
    const issued = new Map<string, number>();
    return {
      next(_index, kind, place, rng) {
        const prefix = `${place.code}-${kind.type}`;
        const n = issued.get(prefix) ?? 0;
        issued.set(prefix, n + 1);
        const serial = (n % SERIALS_PER_GENERATION) + 1;
        const block = Math.floor(n / SERIALS_PER_GENERATION);
        // A serial is unique within its block; blocks past the first get generations of their own.
        const generation =
          block === 0 ? 1 + Math.floor(rng.next() ** 2 * MAX_ORDINARY_GENERATION) : MAX_ORDINARY_GENERATION + block;
        return `${prefix}-${String(serial).padStart(3, "0")}-${String(generation).padStart(3, "0")}`;
      },
    };
  },
};
