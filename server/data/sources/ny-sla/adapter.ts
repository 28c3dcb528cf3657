/**
 * `ny-sla`: New York State Liquor Authority exports from data.ny.gov.
 *
 * Layouts, told apart by their headers (matched ignoring case and punctuation, so R's dotted
 * `License.Serial.Number` and the agency's `License Serial Number` are one column):
 * - active list: "Liquor Authority Quarterly List of Active Licenses" (`nyc_bars.csv` is a subset of it)
 * - applications: "NYS Liquor Authority New Applications Received", imported as `pending` records
 * - statewide extract: the active list cut to eight columns (serial, class, names, certificate,
 *   dates) by its publisher, who also dropped every row with a blank (no license without a trade
 *   name is in it: 87 of the 1,514 such NYC licenses of 2016, which had gained one). A partial list
 *   of the active-list family: what it says of a license wins over an older list, field by field,
 *   but its silence says nothing, and its address, type and type name are `unstated` (written
 *   empty, "NY" for the state): an older list's stand. Its columns: license_serial_number,
 *   doing_business_as (business), premises_name (owner), license_class_code (class),
 *   license_effective_date, license_expiration_date, license_original_issue_date; status `active`.
 *   Not used: license_certificate_number (it changes at each renewal; the serial stays).
 *
 * | field                   | active list                                  | applications                          |
 * |-------------------------|----------------------------------------------|---------------------------------------|
 * | license                 | License Serial Number, as written            | same                                  |
 * | business                | Doing Business As (DBA); if empty, Premises Name | same                              |
 * | owner                   | Premises Name (the licensee's legal name)    | same                                  |
 * | phone                   | null: the SLA publishes none                 | same                                  |
 * | status                  | `active`: the list holds active licenses only | `pending`: applications not decided  |
 * | address.line_1          | Actual Address of Premises (Address1)        | same                                  |
 * | address.line_2          | Additional Address Information (Address2); null if empty | same                      |
 * | address.city            | City (trimmed: the agency pads some)         | same                                  |
 * | address.county          | County Name (Licensee); "" for a premises outside New York (the SLA files an out-of-state licensee under a New York county: ALBANY for wine shippers) | same |
 * | address.state           | State; no state's code: NY, with a repair (the SLA licenses premises in New York); contradicted by a ZIP of another part of the country: the ZIP's state, with a repair (two California wineries marked NY) | same |
 * | address.zip             | Zip through `zipCode`: 5 digits or ZIP+4 (nine bare digits get their dash); malformed or not New York's: "", with a repair; "" when empty | ZIP, same |
 * | dates.effective         | License Effective Date                       | License Received Date: the day the application (and its pending status) began |
 * | dates.expires           | License Expiration Date                      | null: nothing issued yet              |
 * | dates.issued_original   | License Original Issue Date; null when empty (547 rows of nyc_bars.csv) | null       |
 * | dates.issued_latest     | null: no such column                         | null                                  |
 * | details.class           | License Class Code (252); null when empty    | same                                  |
 * | details.description     | License Type Name (ON-PREMISES LIQUOR)       | same                                  |
 * | details.type            | License Type Code (OP)                       | same                                  |
 *
 * - current active list: data.ny.gov "Current Liquor Authority Active Licenses" (9s3h-dpkz), the list a sync
 *   fetches (server/data/sources/ny-sla/fetch.ts), as SODA's CSV gives it: its field names as the header. We hold no
 *   real file of it: it is read as fetch-sources.md section 3 documents it, and tested on a fixture made from our
 *   real records in that layout (server/testing/agency-files.ts). licensepermitid (license), legalname (owner),
 *   dba (business; legalname if empty), class, type, description, actualaddressofpremises (line_1), city,
 *   zipcode, premisescounty, originalissuedate, lastissuedate (issued_latest), effectivedate, expirationdate
 *   (SODA's floating timestamps, 2013-01-30T00:00:00.000); status `active`; no line_2 or state column: the
 *   state is NY unless the ZIP is another state's (that state, a repair), and a premises outside New York gets no
 *   county, as in the other layouts.
 *
 * Not used: agency zone office, certificate number, latitude/longitude (georeference). Dates are MM/DD/YYYY
 * (ISO accepted too). A date the file leaves blank is null, never made up; one that cannot be read
 * is null too, with a repair.
 *
 * A row whose number is intact is kept: a bad address part or date is mended or left empty and
 * counted as a repair, never a skip. The applications file splits two ZIPs across State and ZIP
 * (`11`,`694`: 1323962; `14`,`613`: 3164784): a 2-digit State and a 3-digit ZIP are one 5-digit
 * ZIP, and the state is NY.
 */
import { presentText } from "../../readers/cell-text.ts";
import { dateOrEmpty, isStateCode, licenseNumber, zipCode, zipFitsState, zipStates } from "../../import/fields.ts";
import type { DateFormat } from "../../readers/parse-date.ts";
import type { SourceRecord } from "../source-adapter.ts";
import { rosterAdapter, type RosterLayout } from "../roster-adapter.ts";
import type { TableRow } from "../../readers/table.ts";

const DATE_FORMATS: DateFormat[] = ["us", "iso"];

const COMMON_COLUMNS = {
  license: "License Serial Number",
  typeName: "License Type Name",
  classCode: "License Class Code",
  typeCode: "License Type Code",
  county: "County Name (Licensee)",
  premisesName: "Premises Name",
  dba: "Doing Business As (DBA)",
  address1: "Actual Address of Premises (Address1)",
  address2: "Additional Address Information (Address2)",
  city: "City",
  state: "State",
  zip: "Zip",
};

type CommonKey = keyof typeof COMMON_COLUMNS;

const NYC_COUNTIES = new Set(["NEW YORK", "KINGS", "QUEENS", "BRONX", "RICHMOND"]);

/** "New York City on-premises liquor licenses only", or what else a list's counties and types say. */
function activeListCoverage(records: readonly SourceRecord[]): string {
  const counties = new Set(records.map((r) => r.address.county.toUpperCase()));
  const types = new Set(records.map((r) => r.details.description ?? r.details.type));
  const where = [...counties].every((c) => NYC_COUNTIES.has(c)) ? "New York City" : "statewide";
  const what = types.size === 1 ? `${[...types][0]!.toLowerCase()} licenses` : "licenses of every type";
  return where === "New York City"
    ? `New York City ${what} only (the SLA's active list cut to ${[...counties].sort().join(", ")} counties)`
    : `active ${what}, ${where}`;
}

const activeList: RosterLayout<CommonKey | "originalIssue" | "effective" | "expiration"> = {
  name: "SLA list of active licenses",
  title: "Liquor Authority Quarterly List of Active Licenses",
  family: "active licenses",
  coverage: (file) => activeListCoverage(file.records()),
  // An effective date can lie ahead (a renewal already granted); an original issue date cannot.
  datesBeforeExport: (record) => [record.dates.issued_original],
  columns: {
    ...COMMON_COLUMNS,
    originalIssue: "License Original Issue Date",
    effective: "License Effective Date",
    expiration: "License Expiration Date",
  },
  toValue: (row) =>
    nyRecord(row, "active", {
      effective: dateOrEmpty(row.value("effective"), "effective date", DATE_FORMATS, row),
      expires: dateOrEmpty(row.value("expiration"), "expiration date", DATE_FORMATS, row),
      issued_original: dateOrEmpty(row.value("originalIssue"), "original issue date", DATE_FORMATS, row),
      issued_latest: null,
    }),
};

const applications: RosterLayout<CommonKey | "received"> = {
  name: "SLA new applications received",
  title: "NYS Liquor Authority New Applications Received",
  family: "new applications",
  coverage: (file) => {
    const received = file
      .records()
      .map((r) => r.dates.effective)
      .filter((d) => d !== null)
      .sort();
    return `applications received ${received[0] ?? "?"} to ${received.at(-1) ?? "?"}, statewide: not yet licensed`;
  },
  // Imported with the received date as `effective`.
  datesBeforeExport: (record) => [record.dates.effective],
  columns: { ...COMMON_COLUMNS, received: "License Received Date" },
  toValue: (row) =>
    nyRecord(row, "pending", {
      effective: dateOrEmpty(row.value("received"), "received date", DATE_FORMATS, row),
      expires: null,
      issued_original: null,
      issued_latest: null,
    }),
};

const EXTRACT_COLUMNS = {
  license: "license_serial_number",
  classCode: "license_class_code",
  premisesName: "premises_name",
  dba: "doing_business_as",
  originalIssue: "license_original_issue_date",
  effective: "license_effective_date",
  expiration: "license_expiration_date",
};

const statewideExtract: RosterLayout<keyof typeof EXTRACT_COLUMNS> = {
  name: "SLA list of active licenses, eight-column extract",
  title: "Liquor Authority Quarterly List of Active Licenses (extract: serial, class, names, dates)",
  family: "active licenses",
  partial: true,
  coverage: (file) => {
    const classes = new Set(file.records().map((r) => r.details.class));
    return `active licenses of ${classes.size} classes, statewide, with no address (an extract of the SLA's list that left out licenses without a trade name)`;
  },
  datesBeforeExport: (record) => [record.dates.issued_original],
  columns: EXTRACT_COLUMNS,
  toValue(row) {
    const premisesName = row.text("premisesName");
    return {
      license: licenseNumber(row.text("license")),
      business: row.text("dba") || premisesName,
      owner: premisesName,
      phone: null,
      state: "ny",
      status: "active",
      address: { line_1: "", line_2: null, city: "", county: "", state: "NY", zip: "" },
      dates: {
        effective: dateOrEmpty(row.value("effective"), "effective date", DATE_FORMATS, row),
        expires: dateOrEmpty(row.value("expiration"), "expiration date", DATE_FORMATS, row),
        issued_original: dateOrEmpty(row.value("originalIssue"), "original issue date", DATE_FORMATS, row),
        issued_latest: null,
      },
      details: { class: presentText(row.text("classCode")), description: null, type: "" },
      unstated: ["address", "type", "description"],
    };
  },
};

const CURRENT_COLUMNS = {
  license: "licensepermitid",
  legalName: "legalname",
  dba: "dba",
  classCode: "class",
  typeCode: "type",
  typeName: "description",
  address: "actualaddressofpremises",
  city: "city",
  zip: "zipcode",
  county: "premisescounty",
  originalIssue: "originalissuedate",
  lastIssue: "lastissuedate",
  effective: "effectivedate",
  expiration: "expirationdate",
};

const currentList: RosterLayout<keyof typeof CURRENT_COLUMNS> = {
  name: "SLA current active licenses (data.ny.gov 9s3h-dpkz)",
  title: "Current Liquor Authority Active Licenses",
  family: "active licenses",
  coverage: (file) => activeListCoverage(file.records()),
  datesBeforeExport: (record) => [record.dates.issued_original, record.dates.issued_latest],
  columns: CURRENT_COLUMNS,
  toValue(row) {
    const legalName = row.text("legalName");
    const written = row.text("zip");
    const zipIn = zipStates(written);
    const state = zipIn.length === 1 && !zipFitsState(written, "NY") ? zipIn[0]! : "NY";
    if (state !== "NY") row.repaired(NY_REPAIRS.stateFromZip);
    const county = state === "NY" ? row.text("county") : "";
    const date = (key: "originalIssue" | "lastIssue" | "effective" | "expiration", label: string) =>
      dateOrEmpty(row.value(key), label, DATE_FORMATS, row);
    return {
      license: licenseNumber(row.text("license")),
      business: row.text("dba") || legalName,
      owner: legalName,
      phone: null,
      state: "ny",
      status: "active",
      address: {
        line_1: row.text("address"),
        line_2: null,
        city: row.text("city"),
        county,
        state,
        zip: zipCode(written, state, row),
      },
      dates: {
        effective: date("effective", "effective date"),
        expires: date("expiration", "expiration date"),
        issued_original: date("originalIssue", "original issue date"),
        issued_latest: date("lastIssue", "last issue date"),
      },
      details: {
        class: presentText(row.text("classCode")),
        description: presentText(row.text("typeName")),
        type: row.text("typeCode"),
      },
    };
  },
};

export const NY_REPAIRS = {
  zipSplit: "ZIP split across the State and Zip columns: joined, state taken as NY",
  noState: "State is not a state's two-letter code: taken as NY, where the SLA licenses premises",
  stateFromZip: "State does not fit the ZIP (one of another part of the country): state taken from the ZIP",
  outOfStateCounty: "a New York county given for a premises in another state: county left empty",
} as const;

/** The premises' state and ZIP, mended where the agency split the ZIP or garbled the state. */
function stateAndZip(row: TableRow<CommonKey>): { state: string; zip: string } {
  const written = row.text("state").toUpperCase();
  const zip = row.text("zip");
  if (/^\d{2}$/.test(written) && /^\d{3}$/.test(zip)) {
    row.repaired(NY_REPAIRS.zipSplit);
    return { state: "NY", zip: zipCode(written + zip, "NY", row) };
  }
  if (!isStateCode(written)) {
    row.repaired(NY_REPAIRS.noState);
    return { state: "NY", zip: zipCode(zip, "NY", row) };
  }
  const zipIn = zipStates(zip);
  if (zipIn.length === 1 && !zipFitsState(zip, written)) {
    row.repaired(NY_REPAIRS.stateFromZip);
    return { state: zipIn[0]!, zip: zipCode(zip, zipIn[0]!, row) };
  }
  return { state: written, zip: zipCode(zip, written, row) };
}

function nyRecord(row: TableRow<CommonKey>, status: string, dates: SourceRecord["dates"]): SourceRecord {
  const license = licenseNumber(row.text("license"));
  const premisesName = row.text("premisesName");
  const { state, zip } = stateAndZip(row);
  let county = row.text("county");
  if (state !== "NY" && county !== "") {
    row.repaired(NY_REPAIRS.outOfStateCounty);
    county = "";
  }
  return {
    license,
    business: row.text("dba") || premisesName,
    owner: premisesName,
    phone: null,
    state: "ny",
    status,
    address: {
      line_1: row.text("address1"),
      line_2: presentText(row.text("address2")),
      city: row.text("city"),
      county,
      state,
      zip,
    },
    dates,
    details: {
      class: presentText(row.text("classCode")),
      description: presentText(row.text("typeName")),
      type: row.text("typeCode"),
    },
  };
}

export const nySla = rosterAdapter({
  name: "ny-sla",
  state: "ny",
  agency: "New York State Liquor Authority",
  description:
    "NY SLA: the list of active licenses (whole, data.ny.gov's current one, or the eight-column statewide extract), and the new applications list (imported as pending)",
  // The extract's columns are all in the whole list: it is tried last.
  layouts: [activeList, currentList, applications, statewideExtract],
});
