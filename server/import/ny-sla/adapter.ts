/**
 * `ny-sla`: New York State Liquor Authority exports from data.ny.gov.
 *
 * Layouts, told apart by their headers (matched ignoring case and punctuation, so R's dotted
 * `License.Serial.Number` and the agency's `License Serial Number` are one column):
 * - active list: "Liquor Authority Quarterly List of Active Licenses" (`nyc_bars.csv` is a subset of it)
 * - applications: "NYS Liquor Authority New Applications Received", imported as `pending` records
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
 * | address.county          | County Name (Licensee)                       | same                                  |
 * | address.state           | State; a row whose State is not two letters is skipped | same                        |
 * | address.zip             | Zip as written; "" when empty                | ZIP, same                             |
 * | dates.effective         | License Effective Date                       | License Received Date: the day the application (and its pending status) began |
 * | dates.expires           | License Expiration Date                      | null: nothing issued yet              |
 * | dates.issued_original   | License Original Issue Date; null when empty (547 rows of nyc_bars.csv) | null       |
 * | dates.issued_latest     | null: no such column                         | null                                  |
 * | details.class           | License Class Code (252); null when empty    | same                                  |
 * | details.description     | License Type Name (ON-PREMISES LIQUOR)       | same                                  |
 * | details.type            | License Type Code (OP)                       | same                                  |
 *
 * Not used: agency zone office, certificate number, latitude/longitude. Dates are MM/DD/YYYY
 * (ISO accepted too). A date the file leaves blank is null, never made up.
 */
import { presentText } from "../readers/cell-text.ts";
import { licenseNumber } from "../fields.ts";
import { readDate, type DateFormat } from "../readers/parse-date.ts";
import { RowProblem, type SourceRecord } from "../source-adapter.ts";
import { rosterAdapter, type RosterLayout } from "../roster-adapter.ts";
import type { TableRow } from "../readers/table.ts";

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
  coverage: ({ records }) => activeListCoverage(records()),
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
      effective: readDate(row.value("effective"), "effective date", DATE_FORMATS),
      expires: readDate(row.value("expiration"), "expiration date", DATE_FORMATS),
      issued_original: readDate(row.value("originalIssue"), "original issue date", DATE_FORMATS),
      issued_latest: null,
    }),
};

const applications: RosterLayout<CommonKey | "received"> = {
  name: "SLA new applications received",
  title: "NYS Liquor Authority New Applications Received",
  family: "new applications",
  coverage: ({ records }) => {
    const received = records()
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
      effective: readDate(row.value("received"), "received date", DATE_FORMATS),
      expires: null,
      issued_original: null,
      issued_latest: null,
    }),
};

function nyRecord(row: TableRow<CommonKey>, status: string, dates: SourceRecord["dates"]): SourceRecord {
  const premisesName = row.text("premisesName");
  const state = row.text("state").toUpperCase();
  if (!/^[A-Z]{2}$/.test(state)) throw new RowProblem("address state is not a two-letter code");
  return {
    license: licenseNumber(row.text("license")),
    business: row.text("dba") || premisesName,
    owner: premisesName,
    phone: null,
    state: "ny",
    status,
    address: {
      line_1: row.text("address1"),
      line_2: presentText(row.text("address2")),
      city: row.text("city"),
      county: row.text("county"),
      state,
      zip: row.text("zip"),
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
  description: "NY SLA: the list of active licenses, and the new applications list (imported as pending)",
  layouts: [activeList, applications],
});
