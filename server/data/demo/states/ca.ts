import { streets, TOWN_STREETS } from "../demo-streets.ts";
import { deriveSeed } from "../seeded-random.ts";
import type { LicenseKind, Place, StateProfile } from "../state-profile.ts";
import { uniqueSerials } from "../unique-serials.ts";

// prettier-ignore
const CITY = streets([
  ...TOWN_STREETS, "SUNSET BLVD", "HOLLYWOOD BLVD", "WILSHIRE BLVD", "SANTA MONICA BLVD", "MELROSE AVE", "VENTURA BLVD",
  "FIGUEROA ST", "BROADWAY", "VALENCIA ST", "MISSION ST", "FILLMORE ST", "COLUMBUS AVE", "GRANT AVE", "EL CAMINO REAL",
  "PACIFIC COAST HWY", "TELEGRAPH AVE", "SHATTUCK AVE", "UNIVERSITY AVE", "J ST", "K ST", "GARNET AVE", "PALM CANYON DR",
  "CANNERY ROW", "COLORADO BLVD", "PINE AVE", "ALVARADO ST", "OCEAN AVE", "LA BREA AVE", "FAIRFAX AVE", "CALLE PRINCIPAL",
]);

const place = (county: string, city: string, zip: [number, number], areaCodes: string[], weight: number): Place => ({
  county,
  city,
  zip,
  areaCodes,
  weight,
  streets: CITY,
  directionalShare: 0.12,
});

// prettier-ignore
const PLACES: Place[] = [
  place("LOS ANGELES", "LOS ANGELES", [90001, 90068], ["213", "323", "310", "818"], 20),
  place("LOS ANGELES", "LONG BEACH", [90802, 90815], ["562"], 3),
  place("LOS ANGELES", "PASADENA", [91101, 91107], ["626"], 2),
  place("LOS ANGELES", "SANTA MONICA", [90401, 90405], ["310"], 2),
  place("LOS ANGELES", "WEST HOLLYWOOD", [90069, 90069], ["310", "323"], 1.5),
  place("SAN FRANCISCO", "SAN FRANCISCO", [94102, 94134], ["415", "628"], 8),
  place("SAN DIEGO", "SAN DIEGO", [92101, 92139], ["619", "858"], 8),
  place("SAN DIEGO", "OCEANSIDE", [92054, 92058], ["760"], 1),
  place("ALAMEDA", "OAKLAND", [94601, 94621], ["510"], 4),
  place("ALAMEDA", "BERKELEY", [94702, 94710], ["510"], 2),
  place("SANTA CLARA", "SAN JOSE", [95110, 95139], ["408", "669"], 6),
  place("SANTA CLARA", "PALO ALTO", [94301, 94306], ["650"], 1),
  place("SACRAMENTO", "SACRAMENTO", [95811, 95838], ["916"], 4),
  place("ORANGE", "ANAHEIM", [92801, 92808], ["714", "657"], 3),
  place("ORANGE", "IRVINE", [92602, 92620], ["949"], 2),
  place("ORANGE", "HUNTINGTON BEACH", [92646, 92649], ["714"], 2),
  place("FRESNO", "FRESNO", [93701, 93730], ["559"], 3),
  place("KERN", "BAKERSFIELD", [93301, 93314], ["661"], 2),
  place("NAPA", "NAPA", [94558, 94559], ["707"], 1.5),
  place("NAPA", "ST HELENA", [94574, 94574], ["707"], 0.8),
  place("SONOMA", "SANTA ROSA", [95401, 95409], ["707"], 1.5),
  place("SONOMA", "HEALDSBURG", [95448, 95448], ["707"], 0.8),
  place("RIVERSIDE", "PALM SPRINGS", [92262, 92264], ["760", "442"], 1.5),
  place("RIVERSIDE", "RIVERSIDE", [92501, 92509], ["951"], 2),
  place("SANTA BARBARA", "SANTA BARBARA", [93101, 93111], ["805"], 1.5),
  place("MONTEREY", "MONTEREY", [93940, 93940], ["831"], 1),
  place("HUMBOLDT", "ARCATA", [95521, 95521], ["707"], 0.3),
];

// Type numbers and wording follow the ABC's license types.
// prettier-ignore
const KINDS: LicenseKind[] = [
  { type: "47", description: "ON-SALE GENERAL EATING PLACE", classes: ["ON-SALE"], flavors: ["restaurant", "bar"], weight: 30 },
  { type: "41", description: "ON-SALE BEER AND WINE EATING PLACE", classes: ["ON-SALE"], flavors: ["restaurant"], weight: 22 },
  { type: "48", description: "ON-SALE GENERAL PUBLIC PREMISES", classes: ["ON-SALE"], flavors: ["bar"], weight: 8 },
  { type: "42", description: "ON-SALE BEER AND WINE PUBLIC PREMISES", classes: ["ON-SALE"], flavors: ["bar"], weight: 4 },
  { type: "21", description: "OFF-SALE GENERAL", classes: ["OFF-SALE"], flavors: ["store", "grocery"], weight: 14 },
  { type: "20", description: "OFF-SALE BEER AND WINE", classes: ["OFF-SALE"], flavors: ["grocery"], weight: 16 },
  { type: "51", description: "CLUB", classes: ["ON-SALE"], flavors: ["club"], weight: 2 },
  { type: "70", description: "ON-SALE GENERAL RESTRICTIVE SERVICE", classes: ["ON-SALE"], flavors: ["hotel"], weight: 1 },
  { type: "02", description: "WINEGROWER", classes: ["MANUFACTURER"], flavors: ["maker"], weight: 2 },
  { type: "23", description: "SMALL BEER MANUFACTURER", classes: ["MANUFACTURER"], flavors: ["maker"], weight: 1 },
];

/** Six-digit file numbers from one statewide sequence; past 900,000 records they grow a seventh digit. */
export const ca: StateProfile = {
  code: "ca",
  places: PLACES,
  kinds: KINDS,
  termDays: 365,
  numbering(seed) {
    const serials = uniqueSerials(100_000, 900_000, deriveSeed(seed, "ca"));
    return { next: (index) => String(serials(index)) };
  },
};
