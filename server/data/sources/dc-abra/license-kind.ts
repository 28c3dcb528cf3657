import type { Mends } from "../../import/fields.ts";

// A DC license's class and establishment type, in one vocabulary for every year. Since October
// 2011 ABRA writes them apart (Class `C`, Establishment Type `Restaurant`); before, one Description
// held both ("Retailer CR 01": an on-premises retailer, class C, restaurant; 01 a fee category).

export interface LicenseKind {
  /** A, B, C, D (D.C. Code §§ 25-110 to 25-113), `Caterer`, or K (the one farmer's market). */
  class: string | null;
  /** The establishment type as ABRA has written it since 2011 ("Retail - Liquor Store"); "" when not said. */
  type: string;
}

/** Each establishment type, by its letters alone ("RETAILLIQUORSTORE"): the 2013 list breaks words over lines. */
const TYPES = new Map(
  [
    "Restaurant",
    "Tavern",
    "Nightclub",
    "Hotel",
    "Club",
    "Multipurpose",
    "Marine Vessel",
    "Arena",
    "Convention Center",
    "Retail - Liquor Store",
    "Retail - Grocery",
    "Retail - Class B",
    "Wholesaler",
    "Manufacturer",
    "Caterer",
    "Farmer's Market",
  ].map((type) => [lettersOf(type), type]),
);

/** The letter after C or D in an on-premises retailer's class (C/R, D/T ...), by establishment type. */
const ON_PREMISES_LETTER: Readonly<Record<string, string>> = {
  Restaurant: "R",
  Tavern: "T",
  Nightclub: "N",
  Hotel: "H",
  Club: "X",
  Multipurpose: "X",
  "Marine Vessel": "X",
  Arena: "X",
  "Convention Center": "X",
};

export const KIND_REPAIRS = {
  unknownType: "establishment type not in ABRA's list of types: kept as written",
  unreadDescription: "Description names no class or establishment type ABRA uses: class and type left empty",
} as const;

/** Class and type from the Class and Establishment Type (or Type, or Description) columns of 2011 on. */
export function kindFromColumns(classText: string, typeText: string, row: Mends): LicenseKind {
  const written = collapse(typeText);
  // The 2012-13 lists write "None" as the type of a caterer's license.
  const type = /^none$/i.test(written) ? "" : (TYPES.get(lettersOf(written)) ?? written);
  if (type !== "" && !TYPES.has(lettersOf(type))) row.repaired(KIND_REPAIRS.unknownType);
  const cls = collapse(classText);
  if (/^caterer$/i.test(cls)) return { class: "Caterer", type: type || "Caterer" };
  return { class: cls === "" ? null : cls.toUpperCase(), type };
}

/**
 * Class and type from a 2005-2010 Description: "Retailer A" (liquor store), "Retailer B" (a grocery:
 * most class B stores are, by the later lists), "Retailer CR 01", "Retailer CX Club 01",
 * "Retailer Marine Vessel C", "Wholesaler A", "Caterer"; misspelt "Retailler", "Rertailer".
 */
export function kindFromDescription(description: string, row: Mends): LicenseKind {
  const text = collapse(description).toUpperCase();
  if (text === "CATERER") return { class: "Caterer", type: "Caterer" };
  const wholesaler = /^WHOLESALER ([AB])$/.exec(text);
  if (wholesaler) return { class: wholesaler[1]!, type: "Wholesaler" };
  const rest = /^RE\w*ER\b\s*(.*)$/.exec(text)?.[1];
  if (rest === undefined) return unread(row);
  const offPremises = /^([AB])$/.exec(rest);
  if (offPremises)
    return { class: offPremises[1]!, type: offPremises[1] === "A" ? "Retail - Liquor Store" : "Retail - Grocery" };
  const onPremises = /^([CD])([RTNHX])?(?=\d|\b)\s*(.*)$/.exec(rest);
  if (onPremises) return { class: onPremises[1]!, type: onPremisesType(onPremises[2], onPremises[3]!) };
  // "Retailer Marine Vessel C": the type first, the class last.
  const vessel = /^MARINE VESSEL ([CD])$/.exec(rest);
  if (vessel) return { class: vessel[1]!, type: "Marine Vessel" };
  return unread(row);
}

function onPremisesType(letter: string | undefined, words: string): string {
  switch (letter) {
    case "R":
      return "Restaurant";
    case "T":
      return "Tavern";
    case "N":
      return "Nightclub";
    case "H":
      return "Hotel";
  }
  // C/X and D/X cover clubs, multipurpose facilities, vessels and arenas; the words say which.
  const named = lettersOf(words.replace(/\d+/g, ""));
  if (named.startsWith("CLUB")) return "Club";
  if (named.startsWith("MULTIPURPOSE") || named.startsWith("MULPURPOSE")) return "Multipurpose";
  if (named.startsWith("MARINEVESSEL")) return "Marine Vessel";
  if (named.startsWith("ARENA")) return "Arena";
  // "Railroad, Single" (a dining car) has no type of its own in the later lists; a bare "CX" says none.
  return "";
}

function unread(row: Mends): LicenseKind {
  row.repaired(KIND_REPAIRS.unreadDescription);
  return { class: null, type: "" };
}

/**
 * The license's name as the statute classes it: "Retailer C/R (Restaurant)", "Retailer A (Retail -
 * Liquor Store)", "Wholesaler A", "Manufacturer B", "Caterer"; null when class or type is not known
 * or the pair is not one the statute names (the farmer's market's class K).
 */
export function describeKind({ class: cls, type }: LicenseKind): string | null {
  if (cls === null || type === "") return null;
  if (cls === "Caterer") return "Caterer";
  if (type === "Wholesaler" || type === "Manufacturer") return `${type} ${cls}`;
  const letter = ON_PREMISES_LETTER[type];
  if (letter && (cls === "C" || cls === "D")) return `Retailer ${cls}/${letter} (${type})`;
  if ((cls === "A" || cls === "B") && type.startsWith("Retail")) return `Retailer ${cls} (${type})`;
  return null;
}

/** A cell's words on one line, the 2013 list's Unicode hyphens as plain ones. */
export function collapse(text: string): string {
  return text
    .replace(/[\u2010-\u2015]/g, "-")
    .replace(/\s+/g, " ")
    .trim();
}

function lettersOf(text: string): string {
  return text.toUpperCase().replace(/[^A-Z]/g, "");
}
