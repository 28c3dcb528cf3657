/**
 * `ma-abcc`: the Massachusetts ABCC "Active Retail Licenses" download, as CSV (Excel dates left
 * as serial numbers such as `46387.0`) or as the spreadsheet itself. mass.gov publishes a legacy
 * .xls (what a sync fetches: fetch.ts); we hold no real copy of it, only a CSV saved from it, so the
 * .xls is tested on one written from that CSV's rows (server/testing/agency-files.ts).
 *
 * | field                 | column                                                                 |
 * |-----------------------|------------------------------------------------------------------------|
 * | license               | LICENSE_NO as written (00780-RS-0116)                                  |
 * | business              | DBA (the trade name); if empty, BUSINESS_NAME                          |
 * | owner                 | BUSINESS_NAME, the licensee. MANAGER_NAME is not used: a manager is not the owner |
 * | phone                 | null: the ABCC publishes none                                          |
 * | status                | EXPIRATION_STATUS through STATUSES (Active → active); "" with a repair when empty; RECORD_STATUS ("Issued") is not a status of the license's standing |
 * | address.line_1        | ST_NO and ADDRESS1 joined: the ABCC splits the street number off        |
 * | address.line_2        | ADDRESS2; null when empty                                              |
 * | address.city          | CITY                                                                   |
 * | address.county        | "": the list has no county, and none is derived                        |
 * | address.state         | "MA": ABCC retail licenses are for premises in the state; a STATE other than MA (13 typos: "M", "MQA", "STREET", "") is a repair |
 * | address.zip           | ZIP through `zipCode` (leading zeros kept): 4 digits not starting with 0 get the 0 a spreadsheet dropped (2766 → 02766); truncated (0247), 6-digit, or not a Massachusetts ZIP (20540, 99999): "", with a repair |
 * | dates.effective       | null: the list has no effective date                                   |
 * | dates.expires         | EXPIRATION_DATE (Excel serial)                                         |
 * | dates.issued_original | LICENSE_ISSUE_DATE (Excel serial)                                      |
 * | dates.issued_latest   | null: no such column                                                   |
 * | details.class         | LICENSEE_CLASS (Annual, Seasonal)                                      |
 * | details.description   | ON_TYPE or OFF_TYPE, then ON_CATEGORY or OFF_CATEGORY: "Restaurant, All Alcoholic Beverages" |
 * | details.type          | the license number's middle segment, the ABCC type code (RS restaurant, PK package store, CL club, ...) |
 *
 * Not used: legal structure, transfer and history columns, special legislation, the full-address
 * columns (they repeat the split ones). A date the file leaves blank is null, never made up; one
 * that cannot be read is null too, with a repair: a row whose license number is intact is never dropped.
 */
import { presentText } from "../../readers/cell-text.ts";
import { dateOrEmpty, licenseNumber, mapStatus, zipCode, type StatusTable } from "../../import/fields.ts";
import type { DateFormat } from "../../readers/parse-date.ts";
import type { SourceRecord } from "../source-adapter.ts";
import { rosterAdapter, rosterLayout } from "../roster-adapter.ts";

const DATE_FORMATS: DateFormat[] = ["excel", "us", "iso"];

const STATUSES: StatusTable = {
  ACTIVE: "active",
  EXPIRED: "expired",
  INACTIVE: "inactive",
  CANCELLED: "cancelled",
  REVOKED: "revoked",
  SUSPENDED: "suspended",
  SURRENDERED: "surrendered",
};

const TYPE_SEGMENT = /^\d+-([A-Z]+)-\d+$/;

export const MA_REPAIRS = {
  noStatus: "no EXPIRATION_STATUS: status left empty",
  state: "STATE is not MA (a typo such as M or MQA): taken as MA, where ABCC retail premises are",
} as const;

const retailList = rosterLayout({
  name: "ABCC active retail licenses",
  title: "ABCC Active Retail Licenses",
  family: "active retail licenses",
  coverage: (file) => {
    const kinds = new Set(file.records().map((r) => (r.details.description ?? "").split(",")[0]));
    return `active retail licenses (on- and off-premises: ${kinds.size} kinds), statewide; no wholesalers, manufacturers or one-day licenses`;
  },
  datesBeforeExport: (record) => [record.dates.issued_original],
  columns: {
    license: "LICENSE_NO",
    businessName: "BUSINESS_NAME",
    dba: "DBA",
    licenseType: "LICENSE_TYPE",
    expirationStatus: "EXPIRATION_STATUS",
    expirationDate: "EXPIRATION_DATE",
    issueDate: "LICENSE_ISSUE_DATE",
    onType: "ON_TYPE",
    offType: "OFF_TYPE",
    onCategory: "ON_CATEGORY",
    offCategory: "OFF_CATEGORY",
    licenseeClass: "LICENSEE_CLASS",
    streetNumber: "ST_NO",
    street: "ADDRESS1",
    address2: "ADDRESS2",
    city: "CITY",
    state: "STATE",
    zip: "ZIP",
  },
  toValue(row): SourceRecord {
    const license = licenseNumber(row.text("license"));
    const status = row.text("expirationStatus");
    if (status === "") row.repaired(MA_REPAIRS.noStatus);
    if (row.text("state").toUpperCase() !== "MA") row.repaired(MA_REPAIRS.state);
    const owner = row.text("businessName");
    const kind = row.text("onType") || row.text("offType");
    const category = row.text("onCategory") || row.text("offCategory");
    return {
      license,
      business: row.text("dba") || owner,
      owner,
      phone: null,
      state: "ma",
      status: mapStatus(status, STATUSES),
      address: {
        line_1: [row.text("streetNumber"), row.text("street")].filter(Boolean).join(" "),
        line_2: presentText(row.text("address2")),
        city: row.text("city"),
        county: "",
        state: "MA",
        zip: zipCode(row.text("zip"), "MA", row),
      },
      dates: {
        effective: null,
        expires: dateOrEmpty(row.value("expirationDate"), "expiration date", DATE_FORMATS, row),
        issued_original: dateOrEmpty(row.value("issueDate"), "issue date", DATE_FORMATS, row),
        issued_latest: null,
      },
      details: {
        class: presentText(row.text("licenseeClass")),
        description: presentText([kind, category].filter(Boolean).join(", ")),
        type: TYPE_SEGMENT.exec(license)?.[1] ?? row.text("licenseType"),
      },
    };
  },
});

export const maAbcc = rosterAdapter({
  name: "ma-abcc",
  state: "ma",
  agency: "Massachusetts Alcoholic Beverages Control Commission",
  description: "MA ABCC: active retail licenses (CSV with Excel serial dates, or .xlsx)",
  layouts: [retailList],
});
