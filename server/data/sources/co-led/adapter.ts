/**
 * `co-led`: the Colorado Liquor Enforcement Division's "Recently Approved Liquor Licenses in
 * Colorado" (data.colorado.gov htyp-tqzh, Socrata's CSV export): each license the LED approved in
 * the months the export covers (June 2018 to February 2019 in the copy we hold), one row each.
 *
 * | field                 | column                                                                 |
 * |-----------------------|------------------------------------------------------------------------|
 * | license               | License Number as the LED writes it: seven digits up to September 2018 (4710504), `03-10849` from November 2018 on, when the LED changed systems; a `3-10849` whose 0 a spreadsheet dropped gets it back (a repair); any other form is skipped |
 * | business              | Doing Business As; Licensee Name if it is empty. A Manager Permit (LLDS)'s is the manager's name, as the LED writes it |
 * | owner                 | Licensee Name; "" when blank (6 rows: breweries, a wholesaler, manager permits), a repair |
 * | phone                 | null: the list has none                                                |
 * | status                | `approved` (APPROVED): the list is of approved licenses and gives no status; what became of a license since is not in it |
 * | address.line_1        | Street Address                                                         |
 * | address.line_2        | null: the street is one column                                         |
 * | address.city          | City                                                                   |
 * | address.county        | "": the list has no county ("(county)" in a type names the local licensing authority, not which county) |
 * | address.state         | State: out-of-state importers, manufacturers and wine shippers keep theirs (CA, OR, ...) |
 * | address.zip           | Zip through `zipCode`: 954722311 as 95472-2311; 4 digits in a state whose ZIPs start with 0 (VT 5482) get the 0 back, a repair |
 * | dates.effective       | null: the list gives the day of issue only                             |
 * | dates.expires         | null: no such column (a term runs a year, but the list does not say to when) |
 * | dates.issued_original | null: an approval may be a transfer's, so not always the first issue   |
 * | dates.issued_latest   | Issue Date, MM/DD/YY, the year as 20YY (the list began in 2018)         |
 * | details.class         | null: the LED has no class apart from the type                         |
 * | details.description   | null: the type says it                                                 |
 * | details.type          | License Type as written (Hotel & Restaurant (city)); co.json names each |
 *
 * Not used: Location (Socrata's "street\ncity, ST zip\n(lat, lon)", its `&` written `&amp;`), which
 * repeats the address. Names and streets with spaces around or doubled inside (`601  13TH STREET`)
 * are tidied, a repair. As of: the newest Issue Date (the list states no date of its own).
 *
 * `liquorLicense.csv`, the 2015 licensee list beside it (parentCompany, businessName, ...), has
 * names and addresses but no license numbers: a record cannot be served or looked up without its
 * number, so the file is recognised and refused with that reason (a SourceFileError), never taken
 * for an unknown file nor read in silence.
 */
import { dateOrEmpty, isStateCode, tidyCells, zipCode } from "../../import/fields.ts";
import { rosterAdapter, rosterLayout } from "../roster-adapter.ts";
import type { TableRow } from "../../readers/table.ts";
import { RowProblem, SourceFileError, type SourceAdapter, type SourceRecord } from "../source-adapter.ts";

/** What the list says of every license on it; co.json decodes it. */
export const APPROVED = "approved";

export const CO_REPAIRS = {
  numberZero: "license number of the 03-10849 form without its leading 0 (a spreadsheet's doing): the 0 put back",
  noLicensee: "no Licensee Name: owner left empty",
  state: "State is not a state's postal code: taken as CO",
} as const;

const LEGACY_NUMBER = /^\d{7}$/;
const CURRENT_NUMBER = /^\d{2}-\d{5}$/;
const SHORT_YEAR = /^(\d{1,2})\/(\d{1,2})\/(\d{2})$/;

const approvedList = rosterLayout({
  name: "LED recently approved licenses",
  title: "Recently Approved Liquor Licenses in Colorado",
  family: "recently approved licenses",
  coverage: (file) => approvedMonths(file.records()),
  // A license is approved before the list that names it is made.
  datesBeforeExport: (record) => [record.dates.issued_latest],
  columns: {
    licensee: "Licensee Name",
    dba: "Doing Business As",
    type: "License Type",
    issued: "Issue Date",
    license: "License Number",
    street: "Street Address",
    city: "City",
    state: "State",
    zip: "Zip",
  },
  toValue(row): SourceRecord {
    const text = tidyCells(row);
    const license = ledNumber(text("license"), row);
    const owner = text("licensee");
    if (owner === "") row.repaired(CO_REPAIRS.noLicensee);
    let state = text("state").toUpperCase();
    if (!isStateCode(state)) {
      row.repaired(CO_REPAIRS.state);
      state = "CO";
    }
    const issued = SHORT_YEAR.exec(text("issued"));
    return {
      license,
      business: text("dba") || owner,
      owner,
      phone: null,
      state: "co",
      status: APPROVED,
      address: {
        line_1: text("street"),
        line_2: null,
        city: text("city"),
        county: "",
        state,
        zip: zipCode(text("zip"), state, row),
      },
      dates: {
        effective: null,
        expires: null,
        issued_original: null,
        issued_latest: dateOrEmpty(
          issued ? `${issued[1]}/${issued[2]}/20${issued[3]}` : text("issued"),
          "issue date",
          ["us"],
          row,
        ),
      },
      details: { class: null, description: null, type: text("type") },
    };
  },
});

// The 2015 list beside it: recognised, so that it is refused with its reason rather than called unknown.
const numberless = rosterLayout({
  name: "LED licensee list without license numbers",
  title: "Liquor Licenses in Colorado (a copy without license numbers)",
  family: "licensees without numbers",
  coverage: () => "",
  datesBeforeExport: () => [],
  columns: {
    owner: "parentCompany",
    business: "businessName",
    type: "businessType",
    expires: "expires",
    street: "street",
    city: "city",
    state: "state",
    zip: "zipCode",
  },
  toValue: () => {
    throw new RowProblem("no license number");
  },
});

/** The license number as the LED writes it, in either of its forms. */
function ledNumber(text: string, row: TableRow<string>): string {
  if (LEGACY_NUMBER.test(text) || CURRENT_NUMBER.test(text)) return text;
  if (/^\d-\d{5}$/.test(text)) {
    row.repaired(CO_REPAIRS.numberZero);
    return `0${text}`;
  }
  if (text === "") throw new RowProblem("no license number");
  throw new RowProblem(`license number not in the LED's forms, 4710504 or 03-10849 (${text})`);
}

/** "licenses approved 2018-06 to 2019-02 only": the months of its issue dates, and any month between without one. */
function approvedMonths(records: readonly SourceRecord[]): string {
  const months = new Set(records.map((r) => r.dates.issued_latest?.slice(0, 7)).filter((m) => m !== undefined));
  const sorted = [...months].sort();
  const [first, last] = [sorted[0], sorted.at(-1)];
  if (!first || !last) return "licenses approved in months the list does not give";
  const missing: string[] = [];
  for (let month = nextMonth(first); month < last; month = nextMonth(month)) {
    if (!months.has(month)) missing.push(month);
  }
  const gap = missing.length ? `; none listed for ${missing.join(", ")}` : "";
  return `licenses approved ${first} to ${last} only (the LED's list of recently approved licenses${gap})`;
}

function nextMonth(month: string): string {
  const [year, m] = month.split("-").map(Number);
  return m === 12 ? `${year! + 1}-01` : `${year}-${String(m! + 1).padStart(2, "0")}`;
}

const roster = rosterAdapter({
  name: "co-led",
  state: "co",
  agency: "Colorado Liquor Enforcement Division",
  description: "CO LED: recently approved liquor licenses (CSV); the 2015 list without numbers is refused",
  layouts: [approvedList, numberless],
});

export const coLed: SourceAdapter = {
  ...roster,
  async inspect(file, options) {
    const inspection = await roster.inspect(file, options);
    if (inspection.layout === numberless.name) {
      await inspection.close?.();
      throw new SourceFileError(
        `${file.path}: Colorado licensees without license numbers (parentCompany, businessName, ...): ` +
          "a license cannot be served or looked up without its number, so none of its rows is imported",
      );
    }
    return inspection;
  },
};
