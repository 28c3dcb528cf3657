/**
 * `ca-abc-export`: California ABC's "Daily Data Export" (`DailyExport-CSV.zip`, its member
 * `ABC-DailyDataExport.csv`), every license and pending application, statewide: the file a sync fetches
 * (server/data/sources/ca-abc/fetch.ts). We hold no real copy of it: it is read as fetch-sources.md section 6 documents it
 * (a banner line "Updated Monday 28th of September 2026 03:50:28 AM" after a UTF-8 BOM, then the header, some names
 * with a leading space; blanks as one space; dates as 31-DEC-2026; one row per license type, so a File Number may
 * repeat), and tested on a fixture made from our real records in that layout (server/testing/agency-files.ts).
 * A roster, unlike the daily reports `ca-abc` reads: a license it leaves out is no longer listed.
 *
 * | field                 | column                                                                   |
 * |-----------------------|--------------------------------------------------------------------------|
 * | license               | File Number as written                                                   |
 * | business              | DBA Name; Primary Name when blank                                        |
 * | owner                 | Primary Name                                                             |
 * | phone                 | null: none published                                                     |
 * | status                | Type Status through ca-abc's STATUSES (ACTIVE → active, PEND → pending, SUREND → surrendered; REVPEN, R64B kept lower-cased) |
 * | address.line_1        | Prem Addr 1                                                              |
 * | address.line_2        | Prem Addr 2; null when blank                                             |
 * | address.city          | Prem City                                                                |
 * | address.county        | Prem County, a code made the county's name (19 → Los Angeles), a name kept |
 * | address.state         | Prem State; CA when blank                                                |
 * | address.zip           | Prem Zip through `zipCode`                                               |
 * | dates.effective       | null: the export gives no date the status began                          |
 * | dates.expires         | Expir Date                                                               |
 * | dates.issued_original | Type Orig Iss Date                                                       |
 * | dates.issued_latest   | null: not in the export                                                  |
 * | details.class         | null: the ABC has no class apart from the type                           |
 * | details.description   | Lic or App: "license" or "application"                                   |
 * | details.type          | License Type (41, 47, ...): the first row's, where a license has several (the other rows are skips that say so) |
 *
 * Not used: Fee Codes, Dup Counts, Master Ind, Term, Geo Code, District, the mailing columns, the census tract.
 * As of: the banner's date.
 */
import { caCounty } from "./counties.ts";
import { STATUSES } from "./adapter.ts";
import { dateOrEmpty, isStateCode, licenseNumber, mapStatus, zipCode } from "../../import/fields.ts";
import { cellText, presentText } from "../../readers/cell-text.ts";
import { rosterAdapter, rosterLayout, type FileHead } from "../roster-adapter.ts";

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

/** 31-DEC-2026 as 2026-12-31; anything else as written, for dateOrEmpty to refuse with a repair. */
function exportDate(text: string): string {
  const match = /^(\d{1,2})-([A-Z]{3})-(\d{4})$/i.exec(text);
  const month = match ? MONTHS.indexOf(match[2]!.toUpperCase()) + 1 : 0;
  return match && month > 0 ? `${match[3]}-${String(month).padStart(2, "0")}-${match[1]!.padStart(2, "0")}` : text;
}

const dailyExport = rosterLayout({
  name: "ABC daily data export",
  title: "ABC Daily Data Export",
  family: "daily export",
  coverage: (file) => {
    const apps = file.records().filter((r) => r.details.description === "application").length;
    return `every license and pending application, statewide (${apps.toLocaleString("en-US")} applications)`;
  },
  datesBeforeExport: (record) => [record.dates.issued_original],
  columns: {
    type: "License Type",
    license: "File Number",
    licOrApp: "Lic or App",
    status: "Type Status",
    originalIssue: "Type Orig Iss Date",
    expires: "Expir Date",
    owner: "Primary Name",
    address1: "Prem Addr 1",
    address2: "Prem Addr 2",
    city: "Prem City",
    state: "Prem State",
    zip: "Prem Zip",
    dba: "DBA Name",
    county: "Prem County",
  },
  toValue(row) {
    const owner = row.text("owner");
    const written = row.text("state").toUpperCase();
    const state = isStateCode(written) ? written : "CA";
    const date = (key: "originalIssue" | "expires", label: string) =>
      dateOrEmpty(exportDate(row.text(key)), label, ["iso"], row);
    return {
      license: licenseNumber(row.text("license")),
      business: row.text("dba") || owner,
      owner,
      phone: null,
      state: "ca",
      status: mapStatus(row.text("status"), STATUSES),
      address: {
        line_1: row.text("address1"),
        line_2: presentText(row.text("address2")),
        city: row.text("city"),
        county: caCounty(row.text("county")),
        state,
        zip: zipCode(row.text("zip"), state, row),
      },
      dates: {
        effective: null,
        expires: date("expires", "expiration date"),
        issued_original: date("originalIssue", "original issue date"),
        issued_latest: null,
      },
      details: {
        class: null,
        description: row.text("licOrApp").toUpperCase() === "APP" ? "application" : "license",
        type: row.text("type"),
      },
    };
  },
});

/** "Updated Monday 28th of September 2026 03:50:28 AM" above the header. */
function bannerDate(head: FileHead) {
  const text = head.preamble.flat().map(cellText).join(" ");
  const match = /Updated \w+ (\d{1,2})\w\w of (\w+) (\d{4})/.exec(text);
  if (!match) return null;
  const month = MONTHS.indexOf(match[2]!.slice(0, 3).toUpperCase()) + 1;
  if (month === 0) return null;
  return {
    asOf: `${match[3]}-${String(month).padStart(2, "0")}-${match[1]!.padStart(2, "0")}`,
    asOfFrom: "stated in the file" as const,
  };
}

export const caAbcExport = rosterAdapter({
  name: "ca-abc-export",
  state: "ca",
  agency: "California Department of Alcoholic Beverage Control",
  description:
    "CA ABC: the daily data export (ABC-DailyDataExport.csv, the member of DailyExport-CSV.zip), every license",
  layouts: [dailyExport],
  statedAsOf: bannerDate,
});
