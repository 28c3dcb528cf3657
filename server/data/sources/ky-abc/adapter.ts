/**
 * `ky-abc`: Kentucky ABC's "Active Licenses" report from its BELLE licensing portal (abcportal.ky.gov),
 * exported to CSV: three report lines above the header (`Textbox9,Textbox12,Textbox14`, then the
 * run date and the report's date range, `10/11/2023,01/01/2023,12/31/2023`, then a blank line). The
 * copy we hold is filtered to Fayette County (Lexington). A row is one license; a premises (SiteID)
 * holding several licenses has a row for each.
 *
 * | field                 | column                                                                 |
 * |-----------------------|------------------------------------------------------------------------|
 * | license               | LicenseNumber as written: county code, type code, serial (034-LP-2101, 034-HI-29, 034-NQ4-191200); Fayette is 034, two transporter's licenses carry 998 |
 * | business              | DBA; Licensee when DBA is empty                                         |
 * | owner                 | Licensee, the license holder                                           |
 * | phone                 | null: the report has none                                              |
 * | status                | Status through STATUSES (Active → active); "" with a repair when empty  |
 * | address.line_1        | PremisesStreet, a suite kept in it as written ("4101 Tates Creek, Suite 116") |
 * | address.line_2        | null: the report gives the street in one column                         |
 * | address.city          | City ("Lexington", "LEXINGTON" as written); the city of PremisesCityState when City is empty |
 * | address.county        | County (Fayette)                                                       |
 * | address.state         | "KY": ABC licenses premises in Kentucky                                |
 * | address.zip           | the ZIP at the end of PremisesCityState ("Lexington, KY 40517") through `zipCode`; "" with a repair when it has none |
 * | dates.effective       | EffectiveDate: when the license took effect (a temporary license's event day, which can lie after the run date) |
 * | dates.expires         | ExpiryDate                                                             |
 * | dates.issued_original | IssueDate: renewals leave it as it was (licenses issued in 1978 expire in 2023) |
 * | dates.issued_latest   | null: the report gives no renewal date                                 |
 * | details.class         | null: Kentucky has no class apart from the license type                |
 * | details.type          | the license number's type segment (LP, NQ2, RS, ...), else LicenseType |
 * | details.description   | LicenseType as written ("Quota Retail Package License")               |
 *
 * Not used: SiteID (the premises' id, blank for temporary licenses). Repairs: the report pads most
 * Licensee names (and some DBAs, cities and one license number) with spaces, trimmed with a repair
 * naming the column; a row whose PremisesCityState has no ZIP keeps an empty ZIP; a date that
 * cannot be read is null. A date the report leaves blank is null, never made up. The as-of date is
 * the run date on the report's second line.
 */
import { cellText } from "../../readers/cell-text.ts";
import { dateOrEmpty, licenseNumber, mapStatus, zipCode, type StatusTable } from "../../import/fields.ts";
import { readDate, type DateFormat } from "../../readers/parse-date.ts";
import type { TableRow } from "../../readers/table.ts";
import { rosterAdapter, rosterLayout, type FileHead } from "../roster-adapter.ts";
import type { AsOfFrom, SourceRecord } from "../source-adapter.ts";

const DATE_FORMATS: DateFormat[] = ["us"];

const STATUSES: StatusTable = { ACTIVE: "active" };

const TYPE_SEGMENT = /^\d{3}-([A-Z]+\d?)-\d+$/;
/** "Lexington, KY 40517", "Lexington , KY 40515", "Lexington, KY " */
const CITY_STATE_ZIP = /^(.*?)\s*,\s*([A-Z]{2})\b\s*(.*)$/i;

export const KY_REPAIRS = {
  noStatus: "no Status: status left empty",
  noZip: "no ZIP after the state in PremisesCityState: left empty",
  padded: (column: string) => `${column} padded with spaces: trimmed`,
} as const;

const COLUMNS = {
  county: "County",
  city: "City",
  dba: "DBA",
  licensee: "Licensee",
  street: "PremisesStreet",
  cityStateZip: "PremisesCityState",
  license: "LicenseNumber",
  licenseType: "LicenseType",
  status: "Status",
  issued: "IssueDate",
  effective: "EffectiveDate",
  expires: "ExpiryDate",
};
type Column = keyof typeof COLUMNS;

/** A cell's trimmed text; spaces the report left around it are a repair naming its column. */
function trimmed(row: TableRow<Column>, key: Column): string {
  const raw = row.value(key);
  const text = cellText(raw);
  if (typeof raw === "string" && raw !== text) row.repaired(KY_REPAIRS.padded(COLUMNS[key]));
  return text;
}

const activeLicenses = rosterLayout({
  name: "KY ABC Active Licenses report (BELLE)",
  title: "KY ABC Active Licenses",
  family: "active licenses",
  coverage: (file) => {
    const counties = [
      ...new Set(
        file
          .records()
          .map((r) => r.address.county)
          .filter(Boolean),
      ),
    ].sort();
    const where =
      counties.length === 1
        ? `${counties[0]} County only`
        : counties.length > 1
          ? `${counties.slice(0, -1).join(", ")} and ${counties.at(-1)} counties only`
          : "counties not stated";
    return `${where}: the licenses ABC's Active Licenses report lists as active there`;
  },
  // The report states its run date; an issue date never lies after it.
  datesBeforeExport: (record) => [record.dates.issued_original],
  columns: COLUMNS,
  toValue(row): SourceRecord {
    const license = licenseNumber(trimmed(row, "license"));
    const status = trimmed(row, "status");
    if (status === "") row.repaired(KY_REPAIRS.noStatus);
    const owner = trimmed(row, "licensee");
    const place = CITY_STATE_ZIP.exec(trimmed(row, "cityStateZip"));
    const zip = place?.[3] ?? "";
    if (zip === "") row.repaired(KY_REPAIRS.noZip);
    const licenseType = trimmed(row, "licenseType");
    return {
      license,
      business: trimmed(row, "dba") || owner,
      owner,
      phone: null,
      state: "ky",
      status: mapStatus(status, STATUSES),
      address: {
        line_1: trimmed(row, "street"),
        line_2: null,
        city: trimmed(row, "city") || (place?.[1] ?? ""),
        county: trimmed(row, "county"),
        state: "KY",
        zip: zipCode(zip, "KY", row),
      },
      dates: {
        effective: dateOrEmpty(row.value("effective"), "effective date", DATE_FORMATS, row),
        expires: dateOrEmpty(row.value("expires"), "expiry date", DATE_FORMATS, row),
        issued_original: dateOrEmpty(row.value("issued"), "issue date", DATE_FORMATS, row),
        issued_latest: null,
      },
      details: {
        class: null,
        description: licenseType || null,
        type: TYPE_SEGMENT.exec(license)?.[1] ?? licenseType,
      },
    };
  },
});

/**
 * The report's run date: the first cell of its first dated line (`10/11/2023,01/01/2023,12/31/2023`:
 * the run date, then the date range the report was asked for).
 */
export function reportRunDate({ preamble }: FileHead): { asOf: string; asOfFrom: AsOfFrom } | null {
  for (const cells of preamble) {
    const first = cellText(cells[0]);
    if (!/^\d{1,2}\/\d{1,2}\/\d{4}$/.test(first)) continue;
    try {
      const asOf = readDate(first, "report date", ["us"]);
      if (asOf) return { asOf, asOfFrom: "stated in the file" };
    } catch {
      // Not a calendar day: the report states no date we can trust.
    }
  }
  return null;
}

export const kyAbc = rosterAdapter({
  name: "ky-abc",
  state: "ky",
  agency: "Kentucky Department of Alcoholic Beverage Control",
  description: "KY ABC: the BELLE portal's Active Licenses report (CSV, report lines above the header)",
  layouts: [activeLicenses],
  statedAsOf: reportRunDate,
});
