/**
 * What an NJ ABC license number `CCMM-TT-SSS-XXX` says: county and municipality, license type,
 * serial within the town, generation. County codes are the 21 counties in alphabetical order.
 */
const COUNTIES = [
  "Atlantic",
  "Bergen",
  "Burlington",
  "Camden",
  "Cape May",
  "Cumberland",
  "Essex",
  "Gloucester",
  "Hudson",
  "Hunterdon",
  "Mercer",
  "Middlesex",
  "Monmouth",
  "Morris",
  "Ocean",
  "Passaic",
  "Salem",
  "Somerset",
  "Sussex",
  "Union",
  "Warren",
];

const SHAPE = /^(\d{2})\d{2}-(\d{2})-\d{3}-\d{3}$/;

/** The county the number's first two digits name; "" when the number does not have the NJ shape. */
export function njCounty(license: string): string {
  const code = SHAPE.exec(license)?.[1];
  return code ? (COUNTIES[Number(code) - 1] ?? "") : "";
}

/** The license type code in the number (33 plenary retail consumption, 44 distribution, ...); "" if none. */
export function njTypeCode(license: string): string {
  return SHAPE.exec(license)?.[2] ?? "";
}
