/**
 * `tx-cpa`: TABC permit numbers as the Texas Comptroller of Public Accounts names them in its
 * "Mixed Beverage Gross Receipts" tax filings (data.texas.gov naix-2893): the monthly receipts a
 * permit holder reports, a row per permit and month. A tax record, not TABC's license roster: it
 * says who filed under a permit number and where, never whether the permit is in force, so every
 * record's status is `tax record`, which tx.json decodes to a "check" verdict that sends the clerk
 * to TABC. Named after the Comptroller, whose data it is, not TABC's.
 *
 * Two files, two layouts, both partial lists of one family, the filings (each a slice of them: a
 * newer one does not retire the other's permits, and a permit both name has one history): the SQLite copy an app pulled from the Comptroller's API on 2025-10-22 (table
 * `restaurants`, 5,000 rows of arbitrary months, statewide), and a CSV export of the Travis County
 * taxpayers' rows, dated by its name (`..._20260125.csv`).
 *
 * | field                 | column (the CSV's header names the same columns: TABC Permit Number, ...) |
 * |-----------------------|------------------------------------------------------------------------|
 * | license               | tabc_permit_number as written (MB911490, RM1000660, MB200070013), except the Comptroller's `N 711376` and `D 953701`, a one-letter type padded to two characters, written without the space (N711376) |
 * | business              | location_name: the trade name at the location                          |
 * | owner                 | taxpayer_name: who files the tax under the permit                      |
 * | phone                 | null: not in the filings                                               |
 * | status                | `tax record`: tx.json's "unknown" category, a "check" that names the Comptroller and sends the clerk to TABC |
 * | address.line_1        | location_address as written (`307 W 5TH ST # 307B`)                    |
 * | address.line_2        | null: the unit is written in line 1                                    |
 * | address.city, state   | location_city, location_state                                          |
 * | address.county        | location_county, the Comptroller's code, as the county's name (227 → Travis; counties.ts) |
 * | address.zip           | location_zip through `zipCode`                                         |
 * | dates (all four)      | null: the filings' dates (responsibility begin and end, obligation end) are the taxpayer's, not the permit's; the SQLite copy has them empty besides |
 * | details.type          | the permit number's letters, the TABC permit type (MB, RM, N, NE, NB, TB, TN, D, FB), named in tx.json |
 * | details.class         | null: TABC has no class apart from the type                            |
 * | details.description   | `Comptroller taxpayer <taxpayer_number> (<taxpayer_county's name> County, or an out-of-state taxpayer's taxpayer_state), location <location_number>`: how the Comptroller files it |
 *
 * As-of: the SQLite rows each state the day they were pulled (created_at); the CSV is as of the date
 * in its name. A permit on several rows (months) is counted once when the rows agree, and the first
 * row is kept when they do not (another taxpayer in another month: the rows give no month to order
 * them by). Repaired, counted: the padded one-letter types; a ZIP through zipCode. Not used: the
 * receipts (tax amounts; in the SQLite copy all but the total are 0), the app's own columns (id,
 * latitude, longitude, geocoding_confidence, data_quality_score, is_active, last_updated) and its
 * other tables, Inside/Outside City Limits, and the taxpayer's address.
 */
import { txCounty } from "./counties.ts";
import { licenseNumber, zipCode } from "../../import/fields.ts";
import { readDate } from "../../readers/parse-date.ts";
import type { TableRow } from "../../readers/table.ts";
import { rosterAdapter, rosterLayout } from "../roster-adapter.ts";
import type { SourceRecord } from "../source-adapter.ts";

export const TX_STATUS = "tax record";

export const TX_REPAIRS = {
  paddedType:
    "permit number with a space after its one-letter type (N 711376, the Comptroller's padding): written without it",
} as const;

const COLUMNS = {
  permit: "tabc_permit_number",
  taxpayerNumber: "taxpayer_number",
  taxpayer: "taxpayer_name",
  taxpayerState: "taxpayer_state",
  taxpayerCounty: "taxpayer_county",
  locationNumber: "location_number",
  location: "location_name",
  street: "location_address",
  city: "location_city",
  state: "location_state",
  zip: "location_zip",
  county: "location_county",
};
type Column = keyof typeof COLUMNS;

const PADDED_TYPE = /^([A-Z]) (\d+)$/;

function permitRecord(row: TableRow<Column>): SourceRecord {
  let license = licenseNumber(row.text("permit"));
  const padded = PADDED_TYPE.exec(license);
  if (padded) {
    row.repaired(TX_REPAIRS.paddedType);
    license = `${padded[1]}${padded[2]}`;
  }
  const state = row.text("state");
  const taxpayerCounty = txCounty(row.text("taxpayerCounty"));
  const taxpayerState = row.text("taxpayerState");
  const taxpayerPlace = taxpayerCounty
    ? `${taxpayerCounty} County`
    : taxpayerState && taxpayerState !== "TX"
      ? taxpayerState
      : "";
  return {
    license,
    business: row.text("location"),
    owner: row.text("taxpayer"),
    phone: null,
    state: "tx",
    status: TX_STATUS,
    address: {
      line_1: row.text("street"),
      line_2: null,
      city: row.text("city"),
      county: txCounty(row.text("county")),
      state,
      zip: zipCode(row.text("zip"), state, row),
    },
    dates: { effective: null, expires: null, issued_original: null, issued_latest: null },
    details: {
      class: null,
      description:
        `Comptroller taxpayer ${row.text("taxpayerNumber")}` +
        (taxpayerPlace ? ` (${taxpayerPlace})` : "") +
        `, location ${row.text("locationNumber")}`,
      type: /^[A-Z]+/.exec(license)?.[0] ?? "",
    },
  };
}

const NOT_A_ROSTER = "not a license roster: TABC permit numbers named in the Comptroller's mixed-beverage tax filings";
const MAY_BE_LICENSED = "a permit missing here may be licensed";
const count = (n: number) => n.toLocaleString("en-US");
const TAXPAYER_COUNTY = /\((.+) County\)/;

const pulledFromApi = rosterLayout<Column | "pulled">({
  name: "Comptroller mixed beverage gross receipts (SQLite, restaurants)",
  table: "restaurants",
  title: "Mixed Beverage Gross Receipts (Texas Comptroller), as pulled from its API into dev_tabc_restaurants.db",
  family: "mixed beverage tax filings",
  partial: true,
  columns: { ...COLUMNS, pulled: "created_at" },
  toValue: permitRecord,
  rowAsOf: (row) => readDate(row.value("pulled"), "created_at", ["iso"]),
  coverage: (file) => {
    const all = file.records();
    const counties = new Set(all.map((r) => r.address.county).filter(Boolean));
    return `${NOT_A_ROSTER} (${count(all.length)} permits at locations in ${counties.size} counties, a statewide slice of the filings pulled ${file.last ?? "on a day not given"}); ${MAY_BE_LICENSED}`;
  },
  datesBeforeExport: () => [],
});

const portalExport = rosterLayout<Column>({
  name: "Comptroller mixed beverage gross receipts (CSV export)",
  title: "Mixed Beverage Gross Receipts (Texas Comptroller, data.texas.gov export)",
  family: "mixed beverage tax filings",
  partial: true,
  columns: COLUMNS,
  toValue: permitRecord,
  coverage: (file) => {
    const all = file.records();
    const counties = [...new Set(all.map((r) => TAXPAYER_COUNTY.exec(r.details.description ?? "")?.[1] ?? "?"))];
    const whose =
      counties.length === 1 ? `of ${counties[0]} County taxpayers` : `of taxpayers in ${counties.length} counties`;
    return `${NOT_A_ROSTER} (${count(all.length)} permits ${whose}, an export of the filings); ${MAY_BE_LICENSED}`;
  },
  datesBeforeExport: () => [],
});

export const txCpa = rosterAdapter({
  name: "tx-cpa",
  state: "tx",
  agency: "Texas Comptroller of Public Accounts",
  description:
    "TX Comptroller: TABC permit numbers in the mixed beverage tax filings (SQLite or CSV); a tax record, not a roster",
  layouts: [pulledFromApi, portalExport],
  // data.texas.gov names an export by its day: Mixed_Beverage_Gross_Receipts_20260125.csv.
  statedAsOf: ({ name }) => {
    const day = /_(\d{4})(\d{2})(\d{2})\.csv$/i.exec(name);
    const asOf = day ? readDate(`${day[1]}-${day[2]}-${day[3]}`, "file name date", ["iso"]) : null;
    return asOf ? { asOf, asOfFrom: "the file's name" } : null;
  },
});
