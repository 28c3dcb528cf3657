/**
 * `nj-abc`: New Jersey Division of ABC retail license listings, in two layouts.
 * - report: the "Retail License Report" .xlsx (title and generation date above the header row)
 * - list: the older retail list as CSV, with a geocoder's columns added (`nj_bar_store_licenses.csv`)
 *
 * | field                 | report (.xlsx)                                   | list (CSV)                                  |
 * |-----------------------|--------------------------------------------------|---------------------------------------------|
 * | license               | License Number as written (0101-33-005-003)      | ID, same                                    |
 * | business              | Establishment; Licensee when it is empty or "Not Available"/"NONE"/"NA" | same           |
 * | owner                 | Licensee                                         | same                                        |
 * | phone                 | null: none published                             | same                                        |
 * | status                | `inactive` when Inactivity Start Date is set (a pocket license, not in use), else `active`: the report lists active licenses | State (really the status: Active) through STATUSES; `inactive` likewise |
 * | address.line_1        | Premise Address; "" when none (pocket licenses have no premises) | first line of Premise Address; "" for "NA" and "POCKET" |
 * | address.line_2        | null: one address cell                           | further street lines of Premise Address; null if none |
 * | address.city          | City; "" when none                               | the `CITY, NJ ZIP` line of Premise Address, else City.y |
 * | address.county        | from the license number's first two digits (01 Atlantic … 21 Warren) | same                   |
 * | address.state         | "NJ"                                             | same                                        |
 * | address.zip           | "": the report has no ZIP                        | from the `CITY, NJ ZIP` line; "" if none    |
 * | dates.effective       | Effective Date (a date cell)                     | Effective Date ("Jul 01, 2019")             |
 * | dates.expires         | null: no such column                             | Expiration Date                             |
 * | dates.issued_original | null: no such column                             | null: no such column                        |
 * | dates.issued_latest   | null                                             | null                                        |
 * | details.class         | null: NJ has no class apart from the type        | same                                        |
 * | details.description   | License Type (Plenary Retail Consumption License) | same                                       |
 * | details.type          | the license number's type segment (33)           | same                                        |
 *
 * The report's as-of date is the generation date above its header ("04/01/2026 09:12 AM").
 * Not used: the geocoder's City.x/Address/Longitude/Latitude/Match.Score, Mailing Address,
 * is.bar/is.store. A date the file leaves blank is null, never made up.
 */
import { cellText, presentText } from "../readers/cell-text.ts";
import { licenseNumber } from "../fields.ts";
import { mapStatus, type StatusTable } from "../fields.ts";
import { njCounty, njTypeCode } from "./license-number.ts";
import { parsePremiseAddress } from "./premise-address.ts";
import { readDate } from "../readers/parse-date.ts";
import { RowProblem, type SourceRecord } from "../source-adapter.ts";
import { rosterAdapter, rosterLayout } from "../roster-adapter.ts";

const STATUSES: StatusTable = {
  ACTIVE: "active",
  INACTIVE: "inactive",
  EXPIRED: "expired",
  CANCELLED: "cancelled",
  REVOKED: "revoked",
  SUSPENDED: "suspended",
  SURRENDERED: "surrendered",
};

const NO_VALUE: ReadonlySet<string> = new Set(["NA", "N/A"]);
const NO_ESTABLISHMENT: ReadonlySet<string> = new Set(["NOT AVAILABLE", "NONE", "NA", "N/A"]);
// A pocket license (held, not in use) has no premises; the list writes "POCKET / USA" there.
const NO_PREMISES: ReadonlySet<string> = new Set(["POCKET"]);

interface NjFields {
  license: string;
  establishment: string;
  licensee: string;
  status: string;
  inactiveSince: string | null;
  address: Pick<SourceRecord["address"], "line_1" | "line_2" | "city" | "zip">;
  effective: string | null;
  expires: string | null;
  licenseType: string;
}

function njRecord(f: NjFields): SourceRecord {
  return {
    license: f.license,
    business: presentText(f.establishment, NO_ESTABLISHMENT) ?? f.licensee,
    owner: f.licensee,
    phone: null,
    state: "nj",
    status: f.inactiveSince ? "inactive" : mapStatus(f.status, STATUSES),
    address: { ...f.address, county: njCounty(f.license), state: "NJ" },
    dates: { effective: f.effective, expires: f.expires, issued_original: null, issued_latest: null },
    details: { class: null, description: presentText(f.licenseType), type: njTypeCode(f.license) },
  };
}

/** Inactive (pocket) licenses are listed too: the coverage says how many. */
function retailCoverage(records: readonly SourceRecord[], term: string): string {
  const inactive = records.filter((r) => r.status === "inactive").length;
  return `retail licenses ${term}, statewide, issued by the municipalities (${inactive.toLocaleString("en-US")} of them inactive pocket licenses); no wholesalers or manufacturers`;
}

const report = rosterLayout({
  name: "NJ ABC retail license report (.xlsx)",
  title: "NJ ABC Retail License Report",
  family: "retail licenses",
  coverage: ({ records }) => retailCoverage(records(), "in force"),
  // The report states its own date; an effective date can lie ahead (the July 1 term start).
  datesBeforeExport: () => [],
  columns: {
    license: "License Number",
    licenseType: "License Type",
    establishment: "Establishment",
    licensee: "Licensee",
    inactiveSince: "Inactivity Start Date",
    effective: "Effective Date",
    city: "City",
    premises: "Premise Address",
  },
  toValue: (row) =>
    njRecord({
      license: licenseNumber(row.text("license")),
      establishment: row.text("establishment"),
      licensee: row.text("licensee"),
      status: "active",
      inactiveSince: readDate(row.value("inactiveSince"), "inactivity start date", ["excel", "us", "iso"]),
      address: { line_1: row.text("premises"), line_2: null, city: row.text("city"), zip: "" },
      effective: readDate(row.value("effective"), "effective date", ["excel", "us", "iso"]),
      expires: null,
      licenseType: row.text("licenseType"),
    }),
});

const list = rosterLayout({
  name: "NJ ABC retail license list (CSV)",
  title: "NJ ABC retail licensee list",
  family: "retail licenses",
  coverage: ({ records }) => {
    const terms = new Set(
      records()
        .map((r) => r.dates.expires)
        .filter((d) => d !== null),
    );
    const newest = [...terms].sort().at(-1);
    return retailCoverage(records(), newest ? `of the term ending ${newest}` : "of one term");
  },
  // New licenses and transfers take effect when granted, so no effective date lies ahead of the list.
  datesBeforeExport: (record) => [record.dates.effective],
  columns: {
    license: "ID",
    licenseType: "License Type",
    status: "State",
    establishment: "Establishment",
    licensee: "Licensee",
    effective: "Effective Date",
    inactiveSince: "Inactivity Start Date",
    expiration: "Expiration Date",
    city: "City.y",
    premises: "Premise Address",
  },
  toValue(row): SourceRecord {
    const text = (key: Parameters<typeof row.text>[0]) => presentText(row.text(key), NO_VALUE) ?? "";
    const status = text("status");
    if (status === "") throw new RowProblem("no status");
    const address = parsePremiseAddress(text("premises"));
    if (NO_PREMISES.has(address.line_1.toUpperCase())) address.line_1 = "";
    return njRecord({
      license: licenseNumber(text("license")),
      establishment: text("establishment"),
      licensee: text("licensee"),
      status,
      inactiveSince: readDate(text("inactiveSince"), "inactivity start date", ["month-name", "us", "iso"]),
      address: { ...address, city: address.city ?? text("city") },
      effective: readDate(text("effective"), "effective date", ["month-name", "us", "iso"]),
      expires: readDate(text("expiration"), "expiration date", ["month-name", "us", "iso"]),
      licenseType: text("licenseType"),
    });
  },
});

/** The report's generation date, from the cells above its header: "04/01/2026 09:12 AM". */
function reportDate(preamble: unknown[][]): string | null {
  for (const cells of preamble) {
    for (const cell of cells) {
      const date = /^(\d{2}\/\d{2}\/\d{4})\b/.exec(cellText(cell))?.[1];
      if (date) return readStatedDate(date);
    }
  }
  return null;
}

function readStatedDate(text: string): string | null {
  try {
    return readDate(text, "report date", ["us"]);
  } catch {
    return null;
  }
}

export const njAbc = rosterAdapter({
  name: "nj-abc",
  agency: "New Jersey Division of Alcoholic Beverage Control",
  state: "nj",
  description: "NJ ABC: the retail license report (.xlsx) or the older retail list (CSV)",
  layouts: [report, list],
  statedAsOf: reportDate,
});
