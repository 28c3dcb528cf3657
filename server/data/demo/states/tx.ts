import { streets, TOWN_STREETS } from "../demo-streets.ts";
import { deriveSeed } from "../seeded-random.ts";
import type { LicenseKind, Place, StateProfile } from "../state-profile.ts";
import { groupedSerials } from "../unique-serials.ts";

// prettier-ignore
const CITY = streets([
  ...TOWN_STREETS, "WESTHEIMER RD", "MONTROSE BLVD", "WASHINGTON AVE", "RICHMOND AVE", "KIRBY DR", "SHEPHERD DR",
  "GREENVILLE AVE", "MCKINNEY AVE", "COMMERCE ST", "CONGRESS AVE", "6TH ST", "RAINEY ST", "LAMAR BLVD", "BURNET RD",
  "GUADALUPE ST", "ST MARYS ST", "HOUSTON ST", "BROADWAY", "MAGNOLIA AVE", "CAMP BOWIE BLVD", "MESA ST",
  "UNIVERSITY AVE", "OCEAN DR", "SEAWALL BLVD", "STRAND ST", "FM 1960", "US HIGHWAY 290", "STATE HIGHWAY 71",
  "RANCH RD 620", "PRESTON RD", "LEGACY DR", "TEXAS AVE", "AUSTIN AVE",
]);

const place = (county: string, city: string, zip: [number, number], areaCodes: string[], weight: number): Place => ({
  county,
  city,
  zip,
  areaCodes,
  weight,
  streets: CITY,
  directionalShare: 0.2,
});

// prettier-ignore
const PLACES: Place[] = [
  place("HARRIS", "HOUSTON", [77002, 77099], ["713", "832", "281", "346"], 22),
  place("HARRIS", "PASADENA", [77502, 77506], ["713", "281"], 1.5),
  place("DALLAS", "DALLAS", [75201, 75254], ["214", "469", "972"], 14),
  place("DALLAS", "IRVING", [75038, 75063], ["972"], 2),
  place("TRAVIS", "AUSTIN", [78701, 78759], ["512", "737"], 10),
  place("BEXAR", "SAN ANTONIO", [78201, 78260], ["210", "726"], 10),
  place("TARRANT", "FORT WORTH", [76102, 76137], ["817", "682"], 6),
  place("TARRANT", "ARLINGTON", [76010, 76019], ["817"], 3),
  place("EL PASO", "EL PASO", [79901, 79938], ["915"], 4),
  place("COLLIN", "PLANO", [75023, 75094], ["972", "469"], 3),
  place("COLLIN", "FRISCO", [75033, 75036], ["972", "469"], 2),
  place("LUBBOCK", "LUBBOCK", [79401, 79424], ["806"], 2),
  place("NUECES", "CORPUS CHRISTI", [78401, 78418], ["361"], 2),
  place("GALVESTON", "GALVESTON", [77550, 77554], ["409"], 1.5),
  place("HIDALGO", "MCALLEN", [78501, 78504], ["956"], 2),
  place("MCLENNAN", "WACO", [76701, 76712], ["254"], 1.5),
  place("BRAZOS", "COLLEGE STATION", [77840, 77845], ["979"], 1.5),
  place("HAYS", "SAN MARCOS", [78666, 78667], ["512"], 1),
  place("GILLESPIE", "FREDERICKSBURG", [78624, 78624], ["830"], 0.5),
  place("BREWSTER", "ALPINE", [79830, 79830], ["432"], 0.2),
];

// Permit prefixes follow the TABC's; classes list the secondary permits such a business often holds.
// prettier-ignore
const KINDS: LicenseKind[] = [
  { type: "MB", description: "MIXED BEVERAGE", classes: ["FB", "LB", "FB LB"], flavors: ["bar", "restaurant", "hotel"], weight: 32 },
  { type: "BG", description: "WINE AND BEER RETAILER'S PERMIT", classes: ["FB", "LB"], flavors: ["restaurant", "bar"], weight: 20 },
  { type: "BQ", description: "WINE AND BEER RETAILER'S OFF-PREMISE PERMIT", classes: ["PE"], flavors: ["grocery", "store"], weight: 30 },
  { type: "BF", description: "RETAIL DEALER'S OFF-PREMISE LICENSE", classes: ["PE"], flavors: ["grocery"], weight: 8 },
  { type: "BE", description: "RETAIL DEALER'S ON-PREMISE LICENSE", classes: ["LB"], flavors: ["bar"], weight: 4 },
  { type: "NB", description: "PRIVATE CLUB REGISTRATION", classes: ["NE"], flavors: ["club"], weight: 4 },
  { type: "BW", description: "BREWPUB LICENSE", classes: ["FB"], flavors: ["maker"], weight: 2 },
];

/** `MB852107`: the permit prefix and a six-digit number unique under that prefix. */
export const tx: StateProfile = {
  code: "tx",
  places: PLACES,
  kinds: KINDS,
  termDays: 730,
  numbering(seed) {
    const nextSerial = groupedSerials(100_000, 900_000, (type) => deriveSeed(seed, `tx-${type}`));
    return { next: (_index, kind) => `${kind.type}${nextSerial(kind.type)}` };
  },
};
