import { editDistance } from "../../../store/near-words.ts";
import { isStateCode, zipCode, zipFitsState, zipStates, type Mends } from "../../import/fields.ts";
import type { SourceRecord } from "../source-adapter.ts";

/**
 * The PLCB writes a premises address as one string, `STREET, CITY ST ZIP`
 * ("1310-14 DRURY ST, PHILADELPHIA PA 19107-3412"), its own address lines run together with two
 * spaces ("PITTSBURGH INTERNATIONAL AIRPORT  1000 AIRPORT BLVD") and a suite sometimes after a
 * comma ("1635 MARKET ST, LOWER LEVEL"). Nothing says where a second line would start, so the
 * street is kept whole as line 1, each run of spaces made one.
 */
export type PremisesAddress = Omit<SourceRecord["address"], "line_2" | "county">;

export const ADDRESS_REPAIRS = {
  zipDash: "ZIP with a dash and no +4 after it (19125-): the dash dropped",
  stateFromZip: "state contradicted by the ZIP (PHILADELPHIA PR 19106): taken from the ZIP",
  cityTypo: "city misspelt (PHILADELPHA beside Philadelphia City): the municipality's spelling taken",
  notInForm: "premises address not in the form STREET, CITY ST ZIP: kept whole as line 1",
} as const;

const FORM = /^(.*),\s*(\S.*?) ([A-Z]{2}) (\S+)$/;

/** Runs of spaces made one: the PLCB's joints between its own lines and words carry no meaning. */
export function oneSpaced(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** The premises address of a row; `municipality` (the Municipality column) checks the city's spelling. */
export function premisesAddress(text: string, municipality: string, row: Mends): PremisesAddress {
  const written = oneSpaced(text);
  const parts = FORM.exec(written);
  if (!parts) {
    if (written !== "") row.repaired(ADDRESS_REPAIRS.notInForm);
    return { line_1: written, city: "", state: "PA", zip: "" };
  }
  const [, street, city, writtenState, writtenZip] = parts as unknown as [string, string, string, string, string];
  let zip = writtenZip;
  if (/^\d{5}-$/.test(zip)) {
    row.repaired(ADDRESS_REPAIRS.zipDash);
    zip = zip.slice(0, 5);
  }
  let state = writtenState;
  const zipIn = zipStates(zip);
  if (zipIn.length === 1 && (!isStateCode(state) || !zipFitsState(zip, state))) {
    row.repaired(ADDRESS_REPAIRS.stateFromZip);
    state = zipIn[0]!;
  }
  return {
    line_1: street.replace(/[\s,]+$/, ""),
    city: spelledAsMunicipality(city, municipality, row),
    state,
    zip: zipCode(zip, state, row),
  };
}

/** A city within two letters of its municipality's name (PHILADEDLPHIA, Philadelphia City) is that name. */
function spelledAsMunicipality(city: string, municipality: string, row: Mends): string {
  const name = municipality
    .replace(/ (city|twp|township|borough|boro)$/i, "")
    .trim()
    .toUpperCase();
  if (name.length < 6 || city === name || editDistance(city, name, 2) > 2) return city;
  row.repaired(ADDRESS_REPAIRS.cityTypo);
  return name;
}
