import { streets, TOWN_STREETS } from "../demo-streets.ts";
import { deriveSeed } from "../seeded-random.ts";
import type { LicenseKind, Place, StateProfile } from "../state-profile.ts";
import { groupedSerials } from "../unique-serials.ts";

/** A Massachusetts city or town with its number in the Commonwealth's alphabetical list. */
interface Town extends Place {
  town: number;
}

// prettier-ignore
const BOSTON = streets([
  "BOYLSTON ST", "NEWBURY ST", "TREMONT ST", "WASHINGTON ST", "HANOVER ST", "CAMBRIDGE ST", "COMMONWEALTH AVE",
  "MASSACHUSETTS AVE", "HUNTINGTON AVE", "BEACON ST", "CHARLES ST", "STATE ST", "CONGRESS ST", "SUMMER ST",
  "ATLANTIC AVE", "W BROADWAY", "E BROADWAY", "DORCHESTER AVE", "BLUE HILL AVE", "CENTRE ST", "SALEM ST",
  "LANSDOWNE ST", "DARTMOUTH ST", "HARRISON AVE", "SLEEPER ST", "SEAPORT BLVD", "CANAL ST", "UNION ST",
]);
// prettier-ignore
const TOWNS = streets([
  ...TOWN_STREETS, "HIGHLAND AVE", "MASSACHUSETTS AVE", "SHREWSBURY ST", "ESSEX ST", "PURCHASE ST",
  "COMMERCIAL ST", "ROUTE 28", "NORTH ST", "HANCOCK ST", "HARVARD ST", "BOSTON POST RD", "DERBY ST",
]);

const town = (
  county: string,
  city: string,
  townNumber: number,
  zip: [number, number],
  areaCodes: string[],
  weight: number,
): Town => ({
  county,
  city,
  town: townNumber,
  zip,
  areaCodes,
  weight,
  streets: city === "BOSTON" ? BOSTON : TOWNS,
});

// Town numbers are modelled on the Commonwealth's alphabetical numbering.
// prettier-ignore
const PLACES: Town[] = [
  town("SUFFOLK", "BOSTON", 35, [2108, 2136], ["617", "857"], 28),
  town("SUFFOLK", "CHELSEA", 57, [2150, 2150], ["617"], 1),
  town("SUFFOLK", "REVERE", 248, [2151, 2151], ["781"], 1),
  town("MIDDLESEX", "CAMBRIDGE", 49, [2138, 2142], ["617", "857"], 6),
  town("MIDDLESEX", "SOMERVILLE", 274, [2143, 2145], ["617"], 4),
  town("MIDDLESEX", "LOWELL", 160, [1850, 1854], ["978"], 3),
  town("MIDDLESEX", "NEWTON", 207, [2458, 2468], ["617"], 2),
  town("MIDDLESEX", "FRAMINGHAM", 100, [1701, 1702], ["508"], 2),
  town("WORCESTER", "WORCESTER", 348, [1601, 1610], ["508", "774"], 6),
  town("WORCESTER", "FITCHBURG", 97, [1420, 1420], ["978"], 1),
  town("HAMPDEN", "SPRINGFIELD", 281, [1103, 1129], ["413"], 5),
  town("HAMPDEN", "HOLYOKE", 137, [1040, 1041], ["413"], 1),
  town("ESSEX", "SALEM", 258, [1970, 1971], ["978"], 2),
  town("ESSEX", "LYNN", 163, [1901, 1905], ["781"], 2),
  town("ESSEX", "GLOUCESTER", 107, [1930, 1931], ["978"], 1),
  town("NORFOLK", "QUINCY", 243, [2169, 2171], ["617"], 3),
  town("NORFOLK", "BROOKLINE", 46, [2445, 2446], ["617"], 2),
  town("PLYMOUTH", "PLYMOUTH", 239, [2360, 2362], ["508"], 2),
  town("PLYMOUTH", "BROCKTON", 44, [2301, 2303], ["508"], 2),
  town("BRISTOL", "NEW BEDFORD", 201, [2740, 2746], ["508", "774"], 3),
  town("BRISTOL", "FALL RIVER", 95, [2720, 2724], ["508", "774"], 3),
  town("BARNSTABLE", "HYANNIS", 20, [2601, 2601], ["508"], 1.5),
  town("BARNSTABLE", "PROVINCETOWN", 242, [2657, 2657], ["508"], 0.7),
  town("HAMPSHIRE", "NORTHAMPTON", 214, [1060, 1062], ["413"], 1.5),
  town("BERKSHIRE", "PITTSFIELD", 236, [1201, 1202], ["413"], 1.5),
  town("DUKES", "EDGARTOWN", 89, [2539, 2539], ["508"], 0.3),
];

// prettier-ignore
const KINDS: LicenseKind[] = [
  { type: "RS", description: "RESTAURANT", classes: ["ALL ALCOHOL", "WINE & MALT"], flavors: ["restaurant", "bar"], weight: 38 },
  { type: "TV", description: "TAVERN", classes: ["WINE & MALT", "MALT"], flavors: ["bar"], weight: 6 },
  { type: "GO", description: "GENERAL ON-PREMISES", classes: ["ALL ALCOHOL"], flavors: ["bar"], weight: 5 },
  { type: "HT", description: "HOTEL", classes: ["ALL ALCOHOL"], flavors: ["hotel"], weight: 3 },
  { type: "CL", description: "CLUB", classes: ["ALL ALCOHOL", "WINE & MALT"], flavors: ["club"], weight: 7 },
  { type: "PK", description: "PACKAGE STORE", classes: ["ALL ALCOHOL", "WINE & MALT"], flavors: ["store", "grocery"], weight: 36 },
  { type: "FW", description: "FARMER WINERY", classes: ["WINE"], flavors: ["maker"], weight: 2 },
  { type: "FB", description: "FARMER BREWERY", classes: ["MALT"], flavors: ["maker"], weight: 3 },
];

/** `00780-RS-0116`: a serial unique within the town, the license type, and the town number. */
export const ma: StateProfile<Town> = {
  code: "ma",
  places: PLACES,
  kinds: KINDS,
  termDays: 365,
  numbering(seed) {
    const nextSerial = groupedSerials(1, 99_999, (town) => deriveSeed(seed, `ma-${town}`));
    return {
      next(_index, kind, place) {
        const serial = String(nextSerial(String(place.town))).padStart(5, "0");
        return `${serial}-${kind.type}-${String(place.town).padStart(4, "0")}`;
      },
    };
  },
};
