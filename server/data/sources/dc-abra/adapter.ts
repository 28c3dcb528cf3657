/**
 * `dc-abra`: the District of Columbia ABRA (Alcoholic Beverage Regulation Administration, now
 * ABCA) "ABC Licensees" lists, November 2005 to August 2016: one roster of every ABC license a
 * year or so, in fourteen layouts told apart by their headers. They are one family: the newest list
 * is the District's list, and a later step compares a license list to list, so every field is
 * written one way whatever the year wrote.
 *
 * | field                 | 2005-2010 (Description, split address)        | 2011-2016 (Class and type)                      |
 * |-----------------------|-----------------------------------------------|-------------------------------------------------|
 * | license               | License: a bare number (9, 23.0) made `ABRA-` and six digits (ABRA-000009); from 2008 ABRA-000023 | License / License Number / License #: any spelling (ABRA000559, "ABRA‐\n000010" with U+2010 and a line break, spaces) as ABRA-NNNNNN; a vessel line's further vessels keep their -2, -3 |
 * | business              | Trade Name (a number such as 5 as "5"); the owner when empty | Trade Name / TradeName / LICENSEE TRADE NAME, same |
 * | owner                 | Applicant Name / Applicant                     | Organization Name / Applicant / APPLICANT NAME / Entity Name |
 * | phone                 | null: ABRA publishes none                      | same                                            |
 * | status                | `listed` (UNSTATED_STATUS): the list names the licensee and gives no status | Status through STATUSES (Active → active, Safekeeping → safekeeping, 405.1 New Const → new construction, 404.2 Awaiting License → awaiting license, Stipulated (License) → stipulated, Issued → issued); `listed` where the list has no Status (Oct 2011 to Jul 2012) |
 * | address.line_1        | Street Number, Street Name, Street Type / ST Type, Quad / Quadrant joined in one form (address.ts): upper case, types abbreviated (STREET → ST), "14 ST" → "14TH ST", a range of house numbers as its first (the 2014 and 2016 lists give no ranges), 331.5 → "331 1/2": "527 14TH ST NW" | the street line of Address in the same form; MACARTHUR BLVD N (2011-2012) → NW, a repair; the split columns where the list has no Address (April and August 2014) |
 * | address.line_2        | the unit column ("A, B, C, etc.") as "#A"; null when empty or the list has none (Sep 2007, Dec 2008) | the unit after the quadrant ("... NW A") or its own part ("#A", "STE 1") as "#A", "#1"; null when none (April and August 2014 have none) |
 * | address.city          | WASHINGTON for a District address; the State column's city (Nov 2006, Nov 2010) for one outside | the city line of Address, same |
 * | address.county        | "DISTRICT OF COLUMBIA" for a District address; "" outside it | same                                        |
 * | address.state         | DC; the State column's state, else the ZIP's, for a premises outside the District | same, from Address          |
 * | address.zip           | Zip, five digits; "" when the list has none (Sep 2007) or it is not a ZIP (2002, 200018: a repair) | the ZIP of Address, else the ZIP column; "" when none (August 2014 has none; 0 in 2015) |
 * | dates.*               | null: ABRA publishes none. Nov 2010's "Date License Issued" is not used: 656 of its licenses give 2006-04-01, District Liquors (ABRA-000023, listed in Nov 2005) among them, so it is not an original issue date; and DC licenses run three years, so a license issued then and listed in Nov 2010 was renewed since: not the latest issue either | null |
 * | details.class         | the class letter in Description: A, B (Retailer A/B), C, D (Retailer CR, DT, ...), A or B (Wholesaler A/B), Caterer | Class: A, B, C, D, Caterer, K |
 * | details.type          | the establishment type Description names, in the later lists' words (license-kind.ts): Retailer A → Retail - Liquor Store, Retailer B → Retail - Grocery, CR/DR → Restaurant, CT → Tavern, CN → Nightclub, CH → Hotel, CX Club → Club, CX Multipurpose → Multipurpose, CX Marine Vessel → Marine Vessel, CX Arena → Arena, Caterer → Caterer; "" where it names none (Retailer CX 03, Retailer D) | Establishment Type / Type / TYPE / Description, words rejoined ("Retail ‐ Liquor\nStore" → Retail - Liquor Store); a caterer's "None" → Caterer |
 * | details.description   | the license as the statute names it, from class and type: "Retailer C/R (Restaurant)", "Retailer A (Retail - Liquor Store)", "Wholesaler A", "Caterer"; the 2005-2010 fee category (the 01 of "Retailer CR 01") is not kept: later lists do not give it | same |
 *
 * The District's layer on DC GIS (ArcGIS, what a sync fetches: fetch.ts) has LICENSE, APPLICANT, TRADE_NAME, STATUS,
 * CLASS, TYPE, ADDRESS and ZIPCODE, read as the 2011-2016 lists' columns, and EXPIRATION_DATE (milliseconds since
 * 1970) as dates.expires, the only date ABCA publishes there. As of: the layer's last edit, given by the sync.
 *
 * Not used: Ward, ANC, PSA, V/A, Endorsements, the layer's BREW_PUB, LATITUDE, LONGITUDE and EDITED (a list of endorsements, not a license field).
 * Rows: the October 2011 list repeats its header as its last row (a skip). The August 2013 list was
 * made from a PDF: names and descriptions come wrapped over lines, and cut at the cell's second line
 * ("Capitol City\nBrewing" for Capitol City Brewing Company, LLC); what it gives is kept, rejoined
 * with spaces, with a repair where a name ends on a second line (it may have been cut).
 * As of: the date the list states (a title row, its sheet's name), else its file's name; a month
 * alone (November 2005 ... August 2013) is as of its first day (list-date.ts).
 */
import { collapse, describeKind, kindFromColumns, kindFromDescription, type LicenseKind } from "./license-kind.ts";
import { addressFromParts, addressFromText, type Address } from "./address.ts";
import { listDate } from "./list-date.ts";
import type { Mends } from "../../import/fields.ts";
import { cellText } from "../../readers/cell-text.ts";
import type { TableRow } from "../../readers/table.ts";
import { rosterAdapter, rosterLayout, type RosterLayout } from "../roster-adapter.ts";
import { RowProblem, type SourceRecord } from "../source-adapter.ts";

/** The status of a license on a list without a Status column: it is listed, and no more is said. */
export const UNSTATED_STATUS = "listed";

/** ABRA's status words, by their letters and digits alone ("Safekee\nping" is Safekeeping). */
const STATUSES: Readonly<Record<string, string>> = {
  ACTIVE: "active",
  SAFEKEEPING: "safekeeping",
  "405.1NEWCONST": "new construction",
  "405.1": "new construction",
  "404.2AWAITINGLICENSE": "awaiting license",
  STIPULATED: "stipulated",
  STIPULATEDLICENSE: "stipulated",
  ISSUED: "issued",
};

export const DC_REPAIRS = {
  noStatus: "no Status: status left empty",
  numberPrefix: "characters run into the license number before ABRA (6BABRA-082432) dropped",
  epochDate: "EXPIRATION_DATE is not a date in milliseconds: left empty",
  cutName:
    "trade name or owner runs onto a second line, where the August 2013 list (made from a PDF) cuts names: kept as given, perhaps cut short",
} as const;

/** What a column is for; each layout names the ones its header has. */
type Role =
  | "license"
  | "trade"
  | "owner"
  | "status"
  | "class"
  | "type"
  | "description"
  | "address"
  | "number"
  | "street"
  | "streetType"
  | "unit"
  | "quadrant"
  | "cityState"
  | "zip"
  | "expires";

/**
 * A layout of the list: its header's name for each role it has; the mapping follows from which it
 * has. `namesCut`: the list was made from a PDF whose cells kept two lines (August 2013).
 */
function abraList<K extends Role>(
  name: string,
  columns: Record<K, string>,
  { namesCut = false } = {},
): RosterLayout<K> {
  const has = (role: Role): role is K => role in columns;
  return rosterLayout({
    name: `ABRA list ${name}`,
    title: "ABRA ABC Licensees",
    family: "ABC licensees",
    coverage: (file) =>
      coverage(file.records()) +
      (namesCut ? "; names longer than two lines of the PDF the list was made from are cut short" : ""),
    // ABRA publishes no dates: the list's own date is its as-of.
    datesBeforeExport: () => [],
    columns,
    toValue(row: TableRow<K>): SourceRecord {
      const text = (role: Role) => (has(role) ? row.text(role) : "");
      const value = (role: Role) => (has(role) ? row.value(role) : "");
      const license = licenseNumber(value("license"), row);
      const kind: LicenseKind = has("description")
        ? kindFromDescription(text("description"), row)
        : kindFromColumns(text("class"), text("type"), row);
      const address: Address = has("address")
        ? addressFromText(text("address"), row, text("zip"))
        : addressFromParts(
            {
              number: text("number"),
              street: text("street"),
              type: text("streetType"),
              quadrant: text("quadrant"),
              unit: text("unit"),
              cityState: text("cityState"),
              zip: text("zip"),
            },
            row,
          );
      if (namesCut && [value("trade"), value("owner")].some((v) => cellText(v).includes("\n"))) {
        row.repaired(DC_REPAIRS.cutName);
      }
      const owner = collapse(cellText(value("owner")));
      return {
        license,
        business: collapse(cellText(value("trade"))) || owner,
        owner,
        phone: null,
        state: "dc",
        status: has("status") ? statusOf(text("status"), row) : UNSTATED_STATUS,
        address,
        dates: {
          effective: null,
          expires: has("expires") ? epochDate(text("expires"), row) : null,
          issued_original: null,
          issued_latest: null,
        },
        details: { class: kind.class, description: describeKind(kind), type: kind.type },
      };
    },
  });
}

/** An ArcGIS date (milliseconds since 1970, UTC) as the day it falls on; not one: null, with a repair. */
function epochDate(text: string, row: Mends): string | null {
  if (text === "") return null;
  const ms = Number(text);
  if (!Number.isFinite(ms)) {
    row.repaired(DC_REPAIRS.epochDate);
    return null;
  }
  return new Date(ms).toISOString().slice(0, 10);
}

// Most particular first: a layout matches a header that has all its columns, and some headers hold
// all of another's (July 2015's holds August 2013's and April 2014's).
const LAYOUTS = [
  // What a sync fetches (fetch.ts): ABCA's layer on DC GIS, as fetch-sources.md section 7 documents it. We hold no
  // real copy: tested on a fixture made from our real records in this layout (server/testing/agency-files.ts).
  abraList("on DC GIS (ArcGIS layer 5, Alcohol License Business Locations)", {
    license: "LICENSE",
    owner: "APPLICANT",
    trade: "TRADE_NAME",
    status: "STATUS",
    class: "CLASS",
    type: "TYPE",
    address: "ADDRESS",
    zip: "ZIPCODE",
    expires: "EXPIRATION_DATE",
  }),
  abraList("with Street Type and State (Nov 2006)", {
    license: "License #",
    owner: "Applicant Name",
    trade: "Trade name",
    description: "Description",
    number: "Street Number",
    street: "Street Name",
    streetType: "Street Type",
    unit: "A,B, C etc.",
    quadrant: "Quadrant",
    cityState: "State",
    zip: "Zip",
  }),
  abraList("with Date License Issued (Nov 2010)", {
    license: "License",
    owner: "Applicant",
    trade: "Trade Name",
    description: "Description",
    number: "Street Number",
    street: "Street Name",
    streetType: "Street Type",
    unit: "A,B, C & etc",
    quadrant: "Quadrant",
    cityState: "State",
    zip: "Zip",
  }),
  abraList("with Street # (Dec 2009)", {
    license: "License",
    owner: "Applicant Name",
    trade: "Trade Name",
    description: "Description",
    number: "Street #",
    street: "Street Name",
    streetType: "Street Type",
    unit: "A,B, C & etc",
    quadrant: "Quad",
    zip: "Zip",
  }),
  abraList("with ST Type (Dec 2008)", {
    license: "License",
    owner: "Applicant Name",
    trade: "Trade Name",
    description: "Description",
    number: "Street Number",
    street: "Street Name",
    streetType: "ST Type",
    quadrant: "Quad",
    zip: "Zip",
  }),
  abraList("with Street Type, no Zip (Sep 2007)", {
    license: "License",
    owner: "Applicant Name",
    trade: "Trade Name",
    description: "Description",
    number: "Street Number",
    street: "Street Name",
    streetType: "Street Type",
    quadrant: "Quad",
  }),
  abraList("with the street type in Street Name (Nov 2005)", {
    license: "License#",
    owner: "Applicant Name",
    trade: "Trade Name",
    description: "Description",
    number: "Street Number",
    street: "Street Name",
    unit: "A, B, C, etc.",
    quadrant: "Quad",
    zip: "Zip",
  }),
  abraList("with LICENSEE TRADE NAME (Oct 2011)", {
    license: "LICENSE NUMBER",
    trade: "LICENSEE TRADE NAME",
    owner: "APPLICANT NAME",
    address: "ADDRESS",
    class: "CLASS",
    type: "TYPE",
  }),
  abraList("with Organization Name and Status (Dec 2012, Jan 2014)", {
    license: "License Number",
    trade: "Trade Name",
    owner: "Organization Name",
    status: "Status",
    address: "Address",
    class: "Class",
    type: "Establishment Type",
  }),
  abraList("with Organization Name (Apr and Jul 2012)", {
    license: "License Number",
    trade: "Trade Name",
    owner: "Organization Name",
    address: "Address",
    class: "Class",
    type: "Establishment Type",
  }),
  abraList("with Address and split address (Jul 2015)", {
    license: "License",
    status: "Status",
    owner: "Applicant",
    trade: "TradeName",
    class: "Class",
    type: "Description",
    address: "Address",
    zip: "ZIP",
  }),
  abraList("with split address and City, State (Apr 2014)", {
    license: "License #",
    status: "Status",
    owner: "Applicant",
    trade: "Trade Name",
    class: "Class",
    type: "Description",
    number: "Street Number",
    street: "Street Name",
    streetType: "Street Type",
    quadrant: "Quadrant",
    cityState: "City, State",
    zip: "ZIP",
  }),
  abraList("with split address, no ZIP (Aug 2014)", {
    license: "License #",
    status: "Status",
    owner: "Applicant",
    trade: "Trade Name",
    type: "Description",
    class: "Class",
    number: "Street #",
    street: "Street Name",
    streetType: "Type",
    quadrant: "Quad",
  }),
  abraList(
    "with APPLICANT and DESCRIPTION (Aug 2013)",
    {
      license: "LICENSE",
      trade: "TRADE NAME",
      owner: "APPLICANT",
      status: "STATUS",
      address: "ADDRESS",
      class: "CLASS",
      type: "DESCRIPTION",
    },
    { namesCut: true },
  ),
  abraList("with Entity Name (Aug 2016)", {
    license: "License #",
    status: "Status",
    owner: "Entity Name",
    trade: "Trade Name",
    address: "Address",
    class: "Class",
    type: "Type",
  }),
];

const NUMBER = /^(?:ABRA[-_]?)?0*(\d{1,6})(?:\.0+)?(-\d+)?$/;
const NUMBER_WITHIN = /ABRA[-_]?\d{1,6}(?:-\d+)?$/;

/**
 * ABRA-NNNNNN from any way a list writes it: 23, 23.0, ABRA000023, "ABRA‐\n000023", ABRA_079080;
 * a vessel line's further vessels keep their -2, -3. Characters run into the cell before it
 * (6BABRA-082432: the ANC's) are dropped, with a repair. A row repeating the header, or without a
 * number, is skipped.
 */
function licenseNumber(value: unknown, row: Mends): string {
  let written = cellText(value)
    .toUpperCase()
    .replace(/[\u2010-\u2015]/g, "-")
    .replace(/\s+/g, "");
  if (written === "") throw new RowProblem("no license number");
  if (/^LICENSE/.test(written)) throw new RowProblem("the header repeated among the licenses");
  const within = NUMBER.test(written) ? null : NUMBER_WITHIN.exec(written);
  if (within) {
    row.repaired(DC_REPAIRS.numberPrefix);
    written = within[0];
  }
  const number = NUMBER.exec(written);
  if (!number) throw new RowProblem(`license number not in ABRA's form (${written})`);
  return `ABRA-${number[1]!.padStart(6, "0")}${number[2] ?? ""}`;
}

function statusOf(text: string, row: Mends): string {
  const written = collapse(text);
  if (written === "") {
    row.repaired(DC_REPAIRS.noStatus);
    return "";
  }
  return STATUSES[written.toUpperCase().replace(/[^A-Z0-9.]/g, "")] ?? written.toLowerCase();
}

/** What a list covers: every kind of ABC license in the District, and what its statuses say. */
function coverage(records: readonly SourceRecord[]): string {
  const count = (status: string) => records.filter((r) => r.status === status).length.toLocaleString("en-US");
  const kinds = "ABC licenses of every kind (retailers, wholesalers, manufacturers, caterers), District-wide";
  if (records.every((r) => r.status === UNSTATED_STATUS)) return `${kinds}; the list gives no status`;
  const waiting = records.filter((r) => r.status === "new construction" || r.status === "awaiting license").length;
  return `${kinds}: ${count("active")} active, ${count("safekeeping")} in safekeeping, ${waiting.toLocaleString("en-US")} approved and not yet open`;
}

export const dcAbra = rosterAdapter({
  name: "dc-abra",
  state: "dc",
  agency: "District of Columbia Alcoholic Beverage Regulation Administration",
  description: "DC ABRA: the ABC licensee lists of 2005-2016 (.xls or .xlsx, every layout ABRA used)",
  layouts: LAYOUTS,
  statedAsOf: listDate,
  unstatedStatus: UNSTATED_STATUS,
});
