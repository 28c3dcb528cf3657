import { numberedStreets, streets, TOWN_STREETS } from "../demo-streets.ts";
import { deriveSeed } from "../seeded-random.ts";
import type { LicenseKind, Place, StateProfile } from "../state-profile.ts";
import { uniqueSerials } from "../unique-serials.ts";

/** The serial behind the documented demo link `/license/ny/0012345`: always record 0's. */
export const NY_DEMO_SERIAL = 12345;
/** Every 20th record draws a serial below 1,000,000, so about 5% carry leading zeros. */
const ZERO_LED_EVERY = 20;

// prettier-ignore
const MANHATTAN_NAMED = [
  "BROADWAY", "WATER ST", "PEARL ST", "BLEECKER ST", "HUDSON ST", "GREENWICH ST", "SPRING ST", "MULBERRY ST",
  "ORCHARD ST", "LUDLOW ST", "STONE ST", "FULTON ST", "CANAL ST", "LEXINGTON AVE", "MADISON AVE", "AMSTERDAM AVE",
  "COLUMBUS AVE", "LENOX AVE", "ST MARKS PL", "AVENUE A", "AVENUE B", "FREDERICK DOUGLASS BLVD", "BOWERY",
  "WEST END AVE", "RIVERSIDE DR", "DYCKMAN ST", "CHURCH ST", "MAIDEN LN",
];
const MANHATTAN = streets([
  ...MANHATTAN_NAMED,
  ...MANHATTAN_NAMED,
  ...numberedStreets(1, 11, "AVE"),
  ...numberedStreets(1, 60, "ST", ["W", "E"]),
]);
// prettier-ignore
const BROOKLYN = streets([
  "ATLANTIC AVE", "FLATBUSH AVE", "BEDFORD AVE", "SMITH ST", "COURT ST", "FULTON ST", "MYRTLE AVE", "NOSTRAND AVE",
  "GRAHAM AVE", "MANHATTAN AVE", "DEKALB AVE", "FRANKLIN AVE", "BERRY ST", "WYTHE AVE", "KENT AVE", "GRAND ST",
  "METROPOLITAN AVE", "VAN BRUNT ST", "CHURCH AVE", "KINGS HWY", "OCEAN PKWY", "SURF AVE", "EMMONS AVE", "UNION ST",
  "5TH AVE", "7TH AVE", "3RD AVE", "86TH ST", "18TH AVE", "AVENUE U", "PROSPECT PARK W",
]);
// prettier-ignore
const QUEENS = streets([
  "ROOSEVELT AVE", "NORTHERN BLVD", "QUEENS BLVD", "STEINWAY ST", "BROADWAY", "DITMARS BLVD", "31ST AVE", "30TH AVE",
  "37TH AVE", "JAMAICA AVE", "HILLSIDE AVE", "MAIN ST", "UNION ST", "VERNON BLVD", "JACKSON AVE", "AUSTIN ST",
  "METROPOLITAN AVE", "LIBERTY AVE", "SUTPHIN BLVD", "JUNCTION BLVD", "82ND ST", "74TH ST", "21ST ST", "36TH AVE",
]);
// prettier-ignore
const BRONX = streets([
  "GRAND CONCOURSE", "FORDHAM RD", "ARTHUR AVE", "E TREMONT AVE", "WHITE PLAINS RD", "JEROME AVE", "WESTCHESTER AVE",
  "SOUTHERN BLVD", "E 138TH ST", "CITY ISLAND AVE", "BRUCKNER BLVD", "WILLIAMSBRIDGE RD", "E 187TH ST",
]);
// prettier-ignore
const STATEN_ISLAND = streets([
  "HYLAN BLVD", "VICTORY BLVD", "FOREST AVE", "RICHMOND AVE", "BAY ST", "NEW DORP LN", "PORT RICHMOND AVE",
]);
const UPSTATE = streets([
  ...TOWN_STREETS,
  "ELMWOOD AVE",
  "HERTEL AVE",
  "ALLEN ST",
  "CHIPPEWA ST",
  "EAST AVE",
  "MONROE AVE",
  "LARK ST",
  "ERIE BLVD",
  "SALINA ST",
  "CAROLINE ST",
  "WASHINGTON AVE",
  "DELAWARE AVE",
  "GENESEE ST",
  "ROUTE 9",
]);
// prettier-ignore
const LONG_ISLAND = streets([
  ...TOWN_STREETS, "WALT WHITMAN RD", "MERRICK RD", "SUNRISE HWY", "MONTAUK HWY", "JERICHO TPKE", "NEW YORK AVE",
]);
const WESTCHESTER = streets([...TOWN_STREETS, "MAMARONECK AVE", "CENTRAL PARK AVE", "NORTH AVE", "HUGUENOT ST"]);

// Outside the city, grid towns name halves of a street: `N MAIN ST`, `SOUTH SALINA ST`.
const DIRECTIONAL = new Set([UPSTATE, LONG_ISLAND, WESTCHESTER]);

const place = (
  county: string,
  city: string,
  zip: [number, number],
  areaCodes: string[],
  weight: number,
  streetList = UPSTATE,
): Place => ({
  county,
  city,
  zip,
  areaCodes,
  weight,
  streets: streetList,
  ...(DIRECTIONAL.has(streetList) && { directionalShare: 0.08 }),
});
// prettier-ignore
const queens = (city: string, zip: [number, number], weight: number): Place => ({
  ...place("QUEENS", city, zip, ["718", "347", "929"], weight, QUEENS), hyphenatedNumbers: true,
});

// prettier-ignore
const PLACES: Place[] = [
  place("NEW YORK", "NEW YORK", [10001, 10040], ["212", "646", "917"], 22, MANHATTAN),
  place("KINGS", "BROOKLYN", [11201, 11239], ["718", "347", "929"], 16, BROOKLYN),
  queens("ASTORIA", [11102, 11106], 3),
  queens("LONG ISLAND CITY", [11101, 11101], 2),
  queens("JACKSON HEIGHTS", [11372, 11372], 2),
  queens("ELMHURST", [11373, 11373], 1.5),
  queens("FLUSHING", [11354, 11358], 3),
  queens("JAMAICA", [11432, 11436], 1.5),
  place("BRONX", "BRONX", [10451, 10475], ["718", "347"], 6, BRONX),
  place("RICHMOND", "STATEN ISLAND", [10301, 10314], ["718"], 2.5, STATEN_ISLAND),
  place("WESTCHESTER", "YONKERS", [10701, 10710], ["914"], 2, WESTCHESTER),
  place("WESTCHESTER", "WHITE PLAINS", [10601, 10606], ["914"], 1.5, WESTCHESTER),
  place("WESTCHESTER", "NEW ROCHELLE", [10801, 10805], ["914"], 1, WESTCHESTER),
  place("NASSAU", "HEMPSTEAD", [11550, 11551], ["516"], 1.5, LONG_ISLAND),
  place("NASSAU", "GARDEN CITY", [11530, 11530], ["516"], 1, LONG_ISLAND),
  place("NASSAU", "LONG BEACH", [11561, 11561], ["516"], 1, LONG_ISLAND),
  place("SUFFOLK", "HUNTINGTON", [11743, 11743], ["631"], 1.5, LONG_ISLAND),
  place("SUFFOLK", "PATCHOGUE", [11772, 11772], ["631"], 1, LONG_ISLAND),
  place("SUFFOLK", "MONTAUK", [11954, 11954], ["631"], 0.5, LONG_ISLAND),
  place("ERIE", "BUFFALO", [14201, 14227], ["716"], 5),
  place("ERIE", "CHEEKTOWAGA", [14225, 14227], ["716"], 1),
  place("MONROE", "ROCHESTER", [14604, 14626], ["585"], 4),
  place("ALBANY", "ALBANY", [12202, 12210], ["518"], 3),
  place("ONONDAGA", "SYRACUSE", [13202, 13224], ["315"], 3),
  place("DUTCHESS", "POUGHKEEPSIE", [12601, 12603], ["845"], 1.5),
  place("TOMPKINS", "ITHACA", [14850, 14850], ["607"], 1),
  place("SARATOGA", "SARATOGA SPRINGS", [12866, 12866], ["518"], 1),
  place("BROOME", "BINGHAMTON", [13901, 13905], ["607"], 1),
  place("ULSTER", "KINGSTON", [12401, 12401], ["845"], 0.8),
  place("CHAUTAUQUA", "JAMESTOWN", [14701, 14701], ["716"], 0.5),
  place("ESSEX", "LAKE PLACID", [12946, 12946], ["518"], 0.3),
];

// Type codes follow the SLA's; class numbers and wording are plausible, not the SLA's table.
// prettier-ignore
const KINDS: LicenseKind[] = [
  { type: "OP", description: "ON-PREMISES LIQUOR", classes: ["252"], flavors: ["bar", "restaurant"], weight: 32 },
  { type: "RL", description: "RESTAURANT LIQUOR", classes: ["212"], flavors: ["restaurant"], weight: 6 },
  { type: "RW", description: "RESTAURANT WINE", classes: ["340"], flavors: ["restaurant"], weight: 8 },
  { type: "EB", description: "EATING PLACE BEER", classes: ["223"], flavors: ["restaurant", "bar"], weight: 6 },
  { type: "L", description: "LIQUOR STORE", classes: ["121", "122"], flavors: ["store"], weight: 13 },
  { type: "A", description: "GROCERY BEER", classes: ["101"], flavors: ["grocery"], weight: 18 },
  { type: "AX", description: "BEER & WINE PRODUCTS", classes: ["104"], flavors: ["grocery"], weight: 5 },
  { type: "HL", description: "HOTEL LIQUOR", classes: ["254"], flavors: ["hotel"], weight: 3 },
  { type: "CL", description: "CLUB LIQUOR", classes: ["256"], flavors: ["club"], weight: 4 },
  { type: "FW", description: "FARM WINERY", classes: ["302"], flavors: ["maker"], weight: 2 },
  { type: "MI", description: "MICROBREWER", classes: ["307"], flavors: ["maker"], weight: 1 },
];

export const ny: StateProfile = {
  code: "ny",
  places: PLACES,
  kinds: KINDS,
  termDays: 730,
  numbering(seed) {
    // Two disjoint pools of 7-digit serials: zero-led (below 1,000,000) and the rest.
    const zeroLed = uniqueSerials(0, 1_000_000, deriveSeed(seed, "ny-zero-led"));
    const main = uniqueSerials(1_000_000, 9_000_000, deriveSeed(seed, "ny-main"));
    // Record 0 takes the demo serial; whichever index would have drawn it takes record 0's draw instead.
    const displaced = zeroLed(0);
    return {
      next(index) {
        if (index % ZERO_LED_EVERY !== 0) return String(main(index - Math.floor(index / ZERO_LED_EVERY) - 1));
        const k = index / ZERO_LED_EVERY;
        const drawn = k === 0 ? NY_DEMO_SERIAL : zeroLed(k);
        const serial = k !== 0 && drawn === NY_DEMO_SERIAL ? displaced : drawn;
        return String(serial).padStart(7, "0");
      },
    };
  },
};
