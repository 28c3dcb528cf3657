/**
 * `nj-abc`: New Jersey Division of ABC retail license listings, in two layouts.
 * - report: the "Retail License Report" .xlsx (title and generation date above the header row)
 * - list: the older retail list as CSV, with a geocoder's columns added (`nj_bar_store_licenses.csv`)
 *
 * | field                 | report (.xlsx)                                   | list (CSV)                                  |
 * |-----------------------|--------------------------------------------------|---------------------------------------------|
 * | license               | License Number as written (0101-33-005-003)      | ID, same                                    |
 * | business              | Establishment; Licensee when it is empty or "Not Available"/"NONE"/"NA" | same           |
 * | owner                 | Licensee; "" when blank (mostly pocket licenses)  | same                                        |
 * | phone                 | null: none published                             | same                                        |
 * | status                | `inactive` when Inactivity Start Date is set (a pocket license, not in use), else `active`: the report lists active licenses | State (really the status: Active) through STATUSES; `inactive` likewise |
 * | address.line_1        | first line of Premise Address; "" when none or "POCKET" (pocket licenses have no premises) | same; "" also for "NA" |
 * | address.line_2        | further street lines of Premise Address, joined with ", "; null if none | same                 |
 * | address.city          | City; when it is empty, the city line of Premise Address (repair counted); "" if neither | the city line of Premise Address, else City.y |
 * | address.county        | from the license number's first two digits (01 Atlantic … 21 Warren) | same                   |
 * | address.state         | "NJ"                                             | same                                        |
 * | address.zip           | from the city line of Premise Address (no ZIP column); "" if none: most addresses are one line | the city line of Premise Address; "" if none |
 * | dates.effective       | Inactivity Start Date for an inactive license (the day its status began), else Effective Date | same (dates as "Jul 01, 2019") |
 * | dates.expires         | null: no such column                             | Expiration Date                             |
 * | dates.issued_original | null: no such column                             | null: no such column                        |
 * | dates.issued_latest   | null                                             | null                                        |
 * | details.class         | null: NJ has no class apart from the type        | same                                        |
 * | details.description   | License Type (Plenary Retail Consumption License) | same                                       |
 * | details.type          | the license number's type segment (33)           | same                                        |
 *
 * Cells can hold line breaks. A premise address is street lines then `CITY, NJ  ZIP` (premise-address.ts);
 * on one line (`... ENGLEWOOD NJ 07631`) only the state and ZIP are split off. A City holding a street
 * detail (`ROOM 533C`: it has digits) goes to line_2 (repair counted). A name's lines are joined
 * (name-lines.ts): a continued line with a space, several trade names with "; ".
 * An inactive license's Effective Date is mostly the start of a term it was renewed for while
 * inactive (0714-44-364-008: inactive since 2016-12-19, Effective Date 2025-07-01); served with the
 * status, it would date the inactivity to the renewal. Its Inactivity Start Date is served instead.
 * The report's as-of date is the generation date above its header ("04/01/2026 09:12 AM").
 * Not used: the geocoder's City.x/Address/Longitude/Latitude/Match.Score, Mailing Address,
 * is.bar/is.store. A date the file leaves blank is null, never made up.
 */
import { cellText, presentText } from "../../readers/cell-text.ts";
import { licenseNumber } from "../../import/fields.ts";
import { mapStatus, type StatusTable } from "../../import/fields.ts";
import { njCounty, njTypeCode } from "./license-number.ts";
import { nameFromLines } from "./name-lines.ts";
import { isCityName, parsePremiseAddress, type PremiseAddress } from "./premise-address.ts";
import { readDate } from "../../readers/parse-date.ts";
import type { TableRow } from "../../readers/table.ts";
import { RowProblem, type SourceRecord } from "../source-adapter.ts";
import { rosterAdapter, rosterLayout, type FileHead } from "../roster-adapter.ts";

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
    business: presentText(nameFromLines(f.establishment), NO_ESTABLISHMENT) ?? nameFromLines(f.licensee),
    owner: nameFromLines(f.licensee),
    phone: null,
    state: "nj",
    status: f.inactiveSince ? "inactive" : mapStatus(f.status, STATUSES),
    address: { ...f.address, county: njCounty(f.license), state: "NJ" },
    dates: {
      effective: f.inactiveSince ?? f.effective,
      expires: f.expires,
      issued_original: null,
      issued_latest: null,
    },
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
  coverage: (file) => retailCoverage(file.records(), "in force"),
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
      address: reportAddress(row),
      effective: readDate(row.value("effective"), "effective date", ["excel", "us", "iso"]),
      expires: null,
      licenseType: row.text("licenseType"),
    }),
});

const list = rosterLayout({
  name: "NJ ABC retail license list (CSV)",
  title: "NJ ABC retail licensee list",
  family: "retail licenses",
  coverage: (file) => {
    const records = file.records();
    const terms = new Set(records.map((r) => r.dates.expires).filter((d) => d !== null));
    const newest = [...terms].sort().at(-1);
    return retailCoverage(records, newest ? `of the term ending ${newest}` : "of one term");
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
    return njRecord({
      license: licenseNumber(text("license")),
      establishment: text("establishment"),
      licensee: text("licensee"),
      status,
      inactiveSince: readDate(text("inactiveSince"), "inactivity start date", ["month-name", "us", "iso"]),
      address: { ...address, city: address.city ?? (isCityName(text("city")) ? text("city") : "") },
      effective: readDate(text("effective"), "effective date", ["month-name", "us", "iso"]),
      expires: readDate(text("expiration"), "expiration date", ["month-name", "us", "iso"]),
      licenseType: text("licenseType"),
    });
  },
});

/** The report's City column where it holds a city, else the city line of its Premise Address. */
function reportAddress(row: TableRow<"city" | "premises">): PremiseAddress & { city: string } {
  const address = parsePremiseAddress(row.text("premises"));
  const column = row.text("city");
  if (isCityName(column)) return { ...address, city: column };
  if (column !== "") {
    row.repaired("a street detail in the City column (it has digits) moved to address line 2");
    address.line_2 = address.line_2 ? `${address.line_2}, ${column}` : column;
  } else if (address.city) {
    row.repaired("city taken from the premise address: the City column is empty");
  }
  return { ...address, city: address.city ?? "" };
}

/** The report's generation date, from the cells above its header: "04/01/2026 09:12 AM". */
function reportDate({ preamble }: FileHead): { asOf: string; asOfFrom: "stated in the file" } | null {
  for (const cells of preamble) {
    for (const cell of cells) {
      const date = /^(\d{2}\/\d{2}\/\d{4})\b/.exec(cellText(cell))?.[1];
      const asOf = date && readStatedDate(date);
      if (asOf) return { asOf, asOfFrom: "stated in the file" };
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
