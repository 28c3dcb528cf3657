/**
 * `ma-abcc`: the Massachusetts ABCC "Active Retail Licenses" download, as CSV (Excel dates left
 * as serial numbers such as `46387.0`) or as the .xlsx itself.
 *
 * | field                 | column                                                                 |
 * |-----------------------|------------------------------------------------------------------------|
 * | license               | LICENSE_NO as written (00780-RS-0116)                                  |
 * | business              | DBA (the trade name); if empty, BUSINESS_NAME                          |
 * | owner                 | BUSINESS_NAME, the licensee. MANAGER_NAME is not used: a manager is not the owner |
 * | phone                 | null: the ABCC publishes none                                          |
 * | status                | EXPIRATION_STATUS through STATUSES (Active → active); RECORD_STATUS ("Issued") is not a status of the license's standing |
 * | address.line_1        | ST_NO and ADDRESS1 joined: the ABCC splits the street number off        |
 * | address.line_2        | ADDRESS2; null when empty                                              |
 * | address.city          | CITY                                                                   |
 * | address.county        | "": the list has no county, and none is derived                        |
 * | address.state         | "MA": ABCC retail licenses are for premises in the state; its STATE column has typos ("M", "MQA", "STREET") |
 * | address.zip           | ZIP as written (leading zeros kept; the few 4-digit values are left as the agency wrote them) |
 * | dates.effective       | null: the list has no effective date                                   |
 * | dates.expires         | EXPIRATION_DATE (Excel serial)                                         |
 * | dates.issued_original | LICENSE_ISSUE_DATE (Excel serial)                                      |
 * | dates.issued_latest   | null: no such column                                                   |
 * | details.class         | LICENSEE_CLASS (Annual, Seasonal)                                      |
 * | details.description   | ON_TYPE or OFF_TYPE, then ON_CATEGORY or OFF_CATEGORY: "Restaurant, All Alcoholic Beverages" |
 * | details.type          | the license number's middle segment, the ABCC type code (RS restaurant, PK package store, CL club, ...) |
 *
 * Not used: legal structure, transfer and history columns, special legislation, the full-address
 * columns (they repeat the split ones). A date the file leaves blank is null, never made up.
 */
import { presentText } from "../readers/cell-text.ts";
import { licenseNumber } from "../fields.ts";
import { mapStatus, type StatusTable } from "../fields.ts";
import { readDate, type DateFormat } from "../readers/parse-date.ts";
import { RowProblem, type SourceRecord } from "../source-adapter.ts";
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

const retailList = rosterLayout({
  name: "ABCC active retail licenses",
  title: "ABCC Active Retail Licenses",
  family: "active retail licenses",
  coverage: ({ records }) => {
    const kinds = new Set(records().map((r) => (r.details.description ?? "").split(",")[0]));
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
    zip: "ZIP",
  },
  toValue(row): SourceRecord {
    const license = licenseNumber(row.text("license"));
    const status = row.text("expirationStatus");
    if (status === "") throw new RowProblem("no status");
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
        zip: row.text("zip"),
      },
      dates: {
        effective: null,
        expires: readDate(row.value("expirationDate"), "expiration date", DATE_FORMATS),
        issued_original: readDate(row.value("issueDate"), "issue date", DATE_FORMATS),
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
