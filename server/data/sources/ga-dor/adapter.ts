/**
 * `ga-dor`: the Georgia Department of Revenue's alcohol licensees, statewide, active and inactive,
 * in the five columns of `liquor_licenses.csv` (the amcwilliamson/Georgia repository, "as of January
 * 2015"; the column names are those of Enigma's multi-state compilation, which very probably made it).
 *
 * | field                 | column                                                                    |
 * |-----------------------|---------------------------------------------------------------------------|
 * | license               | license_number as written: a bare integer, 1 to 5 digits (7605, 64447)   |
 * | business              | licensee_name_business as written (quote marks kept: `"CLUB 23"`)         |
 * | owner                 | "": the list gives one name, mostly the trade name, sometimes the licensee's; which, it does not say |
 * | phone                 | null: none published                                                      |
 * | status                | license_status: Active → active, Inactive → inactive; a license listed both → `listed both active and inactive` (below) |
 * | address.line_1        | establishment_address_full up to its city (address.ts); the whole address where no city is told apart, or it ends in no US state (two premises abroad: FRANCE, CHILE) |
 * | address.line_2        | null: the address is one string                                           |
 * | address.city          | the city words that end the address (COLLEGE PARK, ST SIMONS ISLAND), told by the file's own addresses (address.ts); "" where none is told |
 * | address.county        | "": none given                                                            |
 * | address.state         | the state code before the ZIP (GA; CA for a Napa winery that ships to Georgia); GA for premises abroad, whose address names no state |
 * | address.zip           | the ZIP that ends the address, through `zipCode` (ZIP+4 kept); 00000 or not of the state's part of the country: "", with a repair |
 * | dates.*               | null: the list gives no dates                                             |
 * | details.class         | null: the list gives no class                                             |
 * | details.description   | null: the list gives no license type                                      |
 * | details.type          | "": same                                                                  |
 *
 * license_state is always "Georgia"; a row of another state is skipped, and a file whose first
 * licenses are another state's is not this source's (Enigma's compilation has other states in
 * the same columns).
 *
 * Rows: 3,898 rows repeat another exactly (the compilation kept a row per license type and dropped
 * the type): the import counts them once. Two numbers are listed both Active and Inactive with the
 * same name and address (69373 POP LLC, 70062 PIG N WHISTLE PACKAGE STORE). Which row is right the
 * file cannot say (one type of the license may have lapsed), and keeping the first row would make
 * the status the file's order: either may read "active" to a clerk who is not told of the other.
 * Such a license is served once, on its first row, as `listed both active and inactive` (a repair),
 * a status the decoding table leaves undecoded so that it reads "check"; its other row is a skip.
 * Repairs: no status (left empty), an address without a US state (kept whole), no city told apart
 * (the address kept whole as line 1), a ZIP of 00000 (left empty), and the ZIP repairs of fields.ts.
 *
 * As of: the list states no date and holds none. Its publisher's commit dates it "as of January
 * 2015": that exact file (by its SHA-256) is as of 2015-01-01, the first day of the month; any
 * other file of this layout has no known date unless one is given at import.
 */
import { CityWords, placeOf, type Place } from "./address.ts";
import { licenseNumber, mapStatus, zipCode, type StatusTable } from "../../import/fields.ts";
import { openTableFile, readTableFile, tableLayout } from "../../readers/table.ts";
import { sha256Of, type SourceFile } from "../../readers/source-file.ts";
import {
  newestFacts,
  RowProblem,
  UnknownLayoutError,
  type FileInspection,
  type RowOutcome,
  type SourceAdapter,
  type SourceRecord,
} from "../source-adapter.ts";

const STATUSES: StatusTable = { ACTIVE: "active", INACTIVE: "inactive" };

/** The DOR's numbers: a bare integer, no zeros in front, no fixed width. */
const NUMBER = /^[1-9]\d{0,5}$/;

const NOT_GEORGIA = "not a Georgia license";

export const GA_REPAIRS = {
  noStatus: "no license_status: status left empty",
  bothStatuses: "the license is listed both Active and Inactive: served once, as “listed both active and inactive”",
  abroad: "address ends in no US state and ZIP (premises abroad): kept whole as line 1, state GA (the licensing state)",
  noCity: "no city told apart from the street: the address kept whole as line 1",
  zipZeros: "ZIP 00000 (none given): left empty",
} as const;

export const GA_SKIPS = {
  otherStatus: "the license number is on an earlier row with the other status: served once, as listed both",
} as const;

/** The status of a license the list gives several: "listed both active and inactive". */
export function listedBoth(statuses: Iterable<string>): string {
  return `listed both ${[...statuses].sort().join(" and ")}`;
}

/** A row as the list gives it; the address's city is told once the whole file is read. */
interface ListRow {
  license: string;
  status: string;
  name: string;
  /** The address's words, state and ZIP as written; null for one that ends in no US state. */
  place: Place | null;
  /** The ZIP as served (checked by zipCode). */
  zip: string;
  written: string;
}

const LIST = tableLayout({
  name: "DOR alcohol licensees (five columns)",
  columns: {
    state: "license_state",
    status: "license_status",
    license: "license_number",
    name: "licensee_name_business",
    address: "establishment_address_full",
  },
  toValue(row): ListRow {
    const state = row.text("state");
    if (state !== "Georgia") throw new RowProblem(`${NOT_GEORGIA} (license_state ${state || "empty"})`);
    const license = licenseNumber(row.text("license"));
    if (!NUMBER.test(license)) throw new RowProblem(`license number not in the DOR's form (${license})`);
    const status = row.text("status");
    if (status === "") row.repaired(GA_REPAIRS.noStatus);
    const written = row.text("address");
    const place = placeOf(written);
    let zip = "";
    if (place === null) row.repaired(GA_REPAIRS.abroad);
    else if (/^0+$/.test(place.zip)) row.repaired(GA_REPAIRS.zipZeros);
    else zip = zipCode(place.zip, place.state, row);
    return { license, status: mapStatus(status, STATUSES), name: row.text("name"), place, zip, written };
  },
});

/** The address as served, its city told by the file's addresses; repairs noted in `repairs`. */
function addressOf(row: ListRow, cities: CityWords, repairs: string[]): SourceRecord["address"] {
  const { place } = row;
  if (place === null) return { line_1: row.written, line_2: null, city: "", county: "", state: "GA", zip: "" };
  const start = cities.cityStart(place);
  if (start === null) repairs.push(GA_REPAIRS.noCity);
  const at = start ?? place.words.length;
  return {
    line_1: place.words.slice(0, at).join(" "),
    line_2: null,
    city: place.words.slice(at).join(" "),
    county: "",
    state: place.state,
    zip: row.zip,
  };
}

function recordOf(row: ListRow, status: string, address: SourceRecord["address"]): SourceRecord {
  return {
    license: row.license,
    business: row.name,
    owner: "",
    phone: null,
    state: "ga",
    status,
    address,
    dates: { effective: null, expires: null, issued_original: null, issued_latest: null },
    details: { class: null, description: null, type: "" },
  };
}

/**
 * Every row of the list, read whole first: a city is told by the file's other addresses, and a
 * license listed with two statuses only at its second row.
 */
async function* readList(file: SourceFile): AsyncGenerator<RowOutcome> {
  const rows = [];
  const cities = new CityWords();
  const statuses = new Map<string, Set<string>>();
  for await (const row of readTableFile(file, [LIST])) {
    rows.push(row);
    if (!("value" in row)) continue;
    const { license, status, place } = row.value;
    if (place) cities.add(place);
    if (status === "") continue;
    const seen = statuses.get(license);
    if (seen) seen.add(status);
    else statuses.set(license, new Set([status]));
  }
  // A license listed with several statuses: its first row's status as written, and its facts as served (both statuses).
  const firstOfBoth = new Map<string, { status: string; facts: string }>();
  for (const row of rows) {
    if (!("value" in row)) {
      yield row;
      continue;
    }
    const listed = row.value;
    const repairs = [...(row.repairs ?? [])];
    const address = addressOf(listed, cities, repairs);
    const several = statuses.get(listed.license);
    if (several === undefined || several.size < 2) {
      yield { at: row.at, license: listed.license, facts: recordOf(listed, listed.status, address), repairs };
      continue;
    }
    const record = recordOf(listed, listedBoth(several), address);
    const facts = JSON.stringify(record);
    const first = firstOfBoth.get(listed.license);
    if (first === undefined) {
      firstOfBoth.set(listed.license, { status: listed.status, facts });
      repairs.push(GA_REPAIRS.bothStatuses);
    } else if (first.status !== listed.status && first.facts === facts) {
      yield { at: row.at, skip: GA_SKIPS.otherStatus };
      continue;
    }
    // Otherwise a repeat of the first row, or a row with other facts: the import tells them apart.
    yield { at: row.at, license: listed.license, facts: record, repairs };
  }
}

// Dates a file's publisher gives outside it, by the file's SHA-256: only that exact file is dated so.
const PUBLISHED_AS_OF: Readonly<Record<string, string>> = {
  // amcwilliamson/Georgia, commit c1b0bf9 (2015-07-27): "liquor licenses in the state of Georgia as of January 2015".
  "79ec4b15e37e647c30c15f24da86cd7c2d3910f166c8ed9a541b68292c131a05": "2015-01-01",
};

/** Statewide, both statuses, and the licensees of other states (shippers and suppliers). */
function coverage(records: readonly SourceRecord[]): string {
  const count = (test: (r: SourceRecord) => boolean) => records.filter(test).length.toLocaleString("en-US");
  const both = records.some((r) => r.status.startsWith("listed both"))
    ? `, ${count((r) => r.status.startsWith("listed both"))} listed both`
    : "";
  return (
    `the Department of Revenue's alcohol licenses, statewide, active and inactive ` +
    `(${count((r) => r.status === "active")} active, ${count((r) => r.status === "inactive")} inactive${both}; ` +
    `${count((r) => r.address.state !== "GA")} for premises in other states: shippers and suppliers); ` +
    `the list gives no license type, county or dates`
  );
}

export const gaDor: SourceAdapter = {
  name: "ga-dor",
  state: "ga",
  agency: "Georgia Department of Revenue",
  description: "GA DOR: the statewide list of alcohol licensees, active and inactive (the five-column CSV)",
  kind: "roster",
  async inspect(file): Promise<FileInspection> {
    const table = await openTableFile(file, [LIST]);
    let first;
    try {
      first = await table.rows.next();
    } finally {
      await table.close();
    }
    if (!first.done && "skip" in first.value && first.value.skip.startsWith(NOT_GEORGIA)) {
      throw new UnknownLayoutError(`${file.path}: ${first.value.skip}: another state's licenses in these columns`);
    }
    const published = PUBLISHED_AS_OF[await sha256Of(file.path)];
    return {
      layout: LIST.name,
      title: "Georgia DOR alcohol licensees",
      family: "ga-dor: alcohol licensees",
      asOf: published ?? null,
      asOfFrom: published ? "the first day of the month its publisher states" : undefined,
      coverage: (file) => coverage(file.records()),
      // The list holds no dates at all.
      datesBeforeExport: () => [],
    };
  },
  read: readList,
  fold: newestFacts,
};
