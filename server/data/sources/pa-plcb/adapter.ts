/**
 * `pa-plcb`: the Pennsylvania Liquor Control Board's license list, the "CSV Download of All
 * Licenses" of its PLCB+ License Search, as ../shared/data/pa holds it: a county a file
 * (Philadelphia; Allegheny, cut further to premises whose address names Pittsburgh), the rows the
 * PLCB lists as Expired taken out by the files' publisher, who also added a leading row-index
 * column and geocoded lon/lat, and wrote a missing value as NA (R's write.csv).
 *
 * | field                 | column                                                                 |
 * |-----------------------|------------------------------------------------------------------------|
 * | license               | License Number as written: a type prefix and a serial, no hyphen (R142, AB58312); NA (an application not yet numbered): skipped, `no license number` |
 * | business              | Premises (the trade name); Licensee when it is NA                      |
 * | owner                 | Licensee. Premises Owner owns the building and Premises Manager runs it: neither holds the license |
 * | phone                 | null: the PLCB publishes none                                          |
 * | status                | Status lower-cased (active, safekeeping, pending); "" with a repair when NA |
 * | address.line_1        | the street of Premises Address (before its last comma) as one line, runs of spaces made one (premises-address.ts) |
 * | address.line_2        | null: the PLCB's address is one string, and nothing in it says where a second line starts |
 * | address.city          | the city of Premises Address; one within two letters of the Municipality's name (PHILADELPHA) takes the municipality's spelling, with a repair |
 * | address.county        | County without " County" (Philadelphia); "" with a repair for a premises in another state (a wine shipper in California filed under Philadelphia) |
 * | address.state         | the state of Premises Address; one its ZIP contradicts (PHILADELPHIA PR 19106): the ZIP's, with a repair |
 * | address.zip           | the ZIP of Premises Address through `zipCode` (ZIP+4 kept); a dash with no +4 (19125-) dropped, with a repair |
 * | dates.effective       | null: no such column (a term's issue date is not the day it began)     |
 * | dates.expires         | Expiration Date ("Oct 31,2025"); null when NA (grain alcohol permits, applications) |
 * | dates.issued_original | null: no such column                                                   |
 * | dates.issued_latest   | Last Issue Date; null when NA (every pending application)              |
 * | details.class         | null: the PLCB has no class apart from the type                        |
 * | details.description   | License Type (Restaurant (Liquor))                                     |
 * | details.type          | the license number's letter prefix (R), one for one with License Type; License Type for a number without one |
 *
 * A license number on several rows is one license, one row kept (license-rows.ts): the holder's
 * over a pending transfer to someone else, the PLCB's first record (lowest LID) over a further
 * premises, a record's newest issue over an older one. The others are skips with their reason.
 * Names are trimmed and runs of spaces made one ("RON  BERDES"). A date that cannot be read is
 * null with a repair: a row whose number is intact is never dropped.
 *
 * The file states no date: its newest Last Issue Date stands for it. Its family is its county (or
 * counties): the Philadelphia and Allegheny files, two counties of one export, are two lists side
 * by side, and a newer export of a county replaces the older one. Not used: the row index, LID
 * (but to choose between rows of one number), Premises Mailing Address, Municipality (but to check
 * the city's spelling), lon, lat.
 */
import { dateOrEmpty, licenseNumber, mapStatus, type StatusTable } from "../../import/fields.ts";
import type { DateFormat } from "../../readers/parse-date.ts";
import type { SourceFile } from "../../readers/source-file.ts";
import { readTableFile, tableLayout, type TableOutcome, type TableRow } from "../../readers/table.ts";
import { newestFacts, type FileInspection, type SourceAdapter, type SourceRecord } from "../source-adapter.ts";
import { rowsPassedOver, type NumberedRow } from "./license-rows.ts";
import { oneSpaced, premisesAddress } from "./premises-address.ts";

const DATE_FORMATS: DateFormat[] = ["month-name"];

const STATUSES: StatusTable = {
  ACTIVE: "active",
  SAFEKEEPING: "safekeeping",
  PENDING: "pending",
  EXPIRED: "expired",
};

export const PA_REPAIRS = {
  noStatus: "no Status: status left empty",
  outOfStateCounty: "a Pennsylvania county given for a premises in another state: county left empty",
} as const;

const LICENSE_PREFIX = /^([A-Z]+)\d/;

interface PlcbRow {
  record: SourceRecord;
  /** LID, the PLCB's id of the row's record: a later record has a higher one. */
  recordId: number;
  county: string;
}

type Column =
  | "recordId"
  | "license"
  | "type"
  | "status"
  | "licensee"
  | "premises"
  | "address"
  | "county"
  | "municipality"
  | "lastIssued"
  | "expires";

/** A cell's text, NA (R's word for a missing value) as "". */
const text = (row: TableRow<Column>, key: Column) => {
  const value = row.text(key);
  return value === "NA" ? "" : value;
};

const licenseList = tableLayout({
  name: "PLCB license list",
  columns: {
    recordId: "LID",
    license: "License Number",
    type: "License Type",
    status: "Status",
    licensee: "Licensee",
    premises: "Premises",
    address: "Premises Address",
    county: "County",
    municipality: "Municipality",
    lastIssued: "Last Issue Date",
    expires: "Expiration Date",
  },
  toValue(row): PlcbRow {
    const license = licenseNumber(text(row, "license"));
    const status = text(row, "status");
    if (status === "") row.repaired(PA_REPAIRS.noStatus);
    const address = premisesAddress(text(row, "address"), text(row, "municipality"), row);
    const county = text(row, "county");
    let countyName = county.replace(/ County$/i, "");
    if (address.state !== "PA" && countyName !== "") {
      row.repaired(PA_REPAIRS.outOfStateCounty);
      countyName = "";
    }
    const licensee = oneSpaced(text(row, "licensee"));
    const type = text(row, "type");
    const recordId = Number(text(row, "recordId"));
    return {
      recordId: Number.isSafeInteger(recordId) ? recordId : Number.MAX_SAFE_INTEGER,
      county,
      record: {
        license,
        business: oneSpaced(text(row, "premises")) || licensee,
        owner: licensee,
        phone: null,
        state: "pa",
        status: mapStatus(status, STATUSES),
        address: {
          line_1: address.line_1,
          line_2: null,
          city: address.city,
          county: countyName,
          state: address.state,
          zip: address.zip,
        },
        dates: {
          effective: null,
          expires: dateOrEmpty(text(row, "expires"), "expiration date", DATE_FORMATS, row),
          issued_original: null,
          issued_latest: dateOrEmpty(text(row, "lastIssued"), "last issue date", DATE_FORMATS, row),
        },
        details: { class: null, description: type || null, type: LICENSE_PREFIX.exec(license)?.[1] ?? type },
      },
    };
  },
});

/** "Philadelphia County", "Allegheny and Philadelphia counties", "67 counties". */
function countiesNamed(counties: readonly string[]): string {
  const names = [...counties].sort().map((c) => c.replace(/ County$/i, ""));
  if (names.length === 0) return "no county named";
  if (names.length === 1) return `${names[0]} County`;
  if (names.length <= 3) return `${names.slice(0, -1).join(", ")} and ${names.at(-1)} counties`;
  return `${names.length} counties`;
}

/** The city every premises address of the file names, if one does (the Allegheny file was cut to Pittsburgh's). */
function cityOfEvery(records: readonly SourceRecord[]): string | null {
  const cities = new Set(records.map((r) => r.address.city).filter(Boolean));
  const named = [...cities].find((city) =>
    records.every((r) => `${r.address.line_1} ${r.address.city}`.includes(city)),
  );
  return named ? named.toLowerCase().replace(/\b[a-z]/g, (letter) => letter.toUpperCase()) : null;
}

function coverage(counties: readonly string[]): FileInspection["coverage"] {
  return (file) => {
    const records = file.records();
    const city = cityOfEvery(records);
    const noExpired = !records.some((r) => r.status === "expired");
    return (
      `${countiesNamed(counties)} only` +
      (city ? `, premises whose address names ${city}` : "") +
      (noExpired ? "; licenses the PLCB lists as expired are not in it" : "")
    );
  };
}

/** Every row of the file, as the layout reads it (an unknown layout throws UnknownLayoutError). */
async function rowsOf(file: SourceFile): Promise<TableOutcome<PlcbRow>[]> {
  const rows: TableOutcome<PlcbRow>[] = [];
  for await (const row of readTableFile(file, [licenseList])) rows.push(row);
  return rows;
}

export const paPlcb: SourceAdapter = {
  name: "pa-plcb",
  state: "pa",
  agency: "Pennsylvania Liquor Control Board",
  description: "PA PLCB: the PLCB+ license list (CSV Download of All Licenses), whole or cut to counties",
  kind: "roster",
  async inspect(file) {
    // The family is the file's counties: a look at the header alone cannot tell them.
    const rows = await rowsOf(file);
    const counties = [
      ...new Set(rows.flatMap((row) => ("value" in row && row.value.county ? [row.value.county] : []))),
    ];
    return {
      layout: licenseList.name,
      title: "PLCB+ License Search: CSV Download of All Licenses",
      family: `pa-plcb: licenses of ${counties.sort().join(", ") || "no county named"}`,
      asOf: null,
      coverage: coverage(counties),
      // An expiry lies ahead; a term's issue date does not.
      datesBeforeExport: (record) => [record.dates.issued_latest],
    };
  },
  async *read(file) {
    const rows = await rowsOf(file);
    const passedOver = rowsPassedOver(rows.filter((row): row is NumberedRow & TableOutcome<PlcbRow> => "value" in row));
    for (const row of rows) {
      if (!("value" in row)) {
        yield row;
        continue;
      }
      const reason = passedOver.get(row);
      const record = row.value.record;
      yield reason
        ? { at: row.at, skip: reason }
        : { at: row.at, license: record.license, facts: record, repairs: row.repairs };
    }
  },
  fold: newestFacts,
};
