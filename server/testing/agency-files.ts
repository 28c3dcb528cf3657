import { readFileSync } from "node:fs";
import { zipSync } from "fflate";
import Papa from "papaparse";
import { readAll, sharedData } from "./adapter-test-helpers.ts";
import { findSourceAdapter } from "../data/sources/adapters.ts";
import type { LicenseRecord } from "../store/license-record.ts";

// Files in the layouts the agencies' live endpoints give (fetch-sources.md), made from our real records where we hold
// no real file of that layout; and our real files, read where they are (../shared/data, never copied here).

/** Our real records of one of ../shared/data's files, as the import reads them, in license order. */
export async function realRecords(adapter: string, path: string, limit = Infinity): Promise<LicenseRecord[]> {
  const read = await readAll(findSourceAdapter(adapter)!, [sharedData(path)]);
  return [...read.records.values()]
    .map((r) => r.record)
    .sort((a, b) => (a.license < b.license ? -1 : 1))
    .slice(0, limit);
}

/** A real file of ../shared/data, as its bytes. */
export function realFile(path: string): Buffer {
  return readFileSync(sharedData(path));
}

const datesOf = (record: LicenseRecord) => record.dates[record.state]!;

/** Socrata's floating timestamp: 2013-01-30T00:00:00.000. */
const floating = (date: string | null) => (date ? `${date}T00:00:00.000` : "");

/** data.ny.gov's "Current Liquor Authority Active Licenses" (9s3h-dpkz) as SODA's CSV gives it (section 3). */
export function nyCurrentCsv(records: readonly LicenseRecord[]): string {
  return Papa.unparse(
    records.map((r) => ({
      licensepermitid: r.license,
      legalname: r.owner,
      dba: r.business === r.owner ? "" : r.business,
      class: r.details.class ?? "",
      type: r.details.type,
      description: r.details.description ?? "",
      actualaddressofpremises: r.address.line_1,
      city: r.address.city,
      zipcode: r.address.zip,
      premisescounty: r.address.county,
      originalissuedate: floating(datesOf(r).issued_original),
      lastissuedate: floating(datesOf(r).issued_latest),
      effectivedate: floating(datesOf(r).effective),
      expirationdate: floating(datesOf(r).expires),
    })),
    { newline: "\n" },
  );
}

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
/** 31-DEC-2026; a blank is one space, as the export writes it. */
const caDate = (date: string | null) =>
  date ? `${date.slice(8)}-${MONTHS[Number(date.slice(5, 7)) - 1]}-${date.slice(0, 4)}` : " ";

/**
 * CA ABC's DailyExport-CSV.zip (section 6): one member, ABC-DailyDataExport.csv, a BOM and the "Updated" banner
 * above the header, some names with a leading space, blanks as one space.
 */
export function caDailyExportZip(
  records: readonly LicenseRecord[],
  banner = "Thursday 26th of November 2026 03:50:28 AM",
) {
  const header = [
    "License Type", "File Number", "Lic or App", "Type Status", "Type Orig Iss Date", "Expir Date", "Fee Codes",
    "Dup Counts", "Master Ind", "Term in # of Months", "Geo Code", "District", "Primary Name", "Prem Addr 1",
    " Prem Addr 2", "Prem City", " Prem State", "Prem Zip", "DBA Name", "Mail Addr 1", "Mail Addr 2", "Mail City",
    "Mail State", "Mail Zip", "Prem County", "Prem Census Tract #",
  ]; // prettier-ignore
  const blank = (text: string | null) => text || " ";
  const rows = records.map((r) => [
    r.details.type.split(",")[0]!.trim() || "41",
    r.license,
    r.status === "pending" ? "APP" : "LIC",
    r.status === "pending" ? "PEND" : r.status.toUpperCase(),
    caDate(datesOf(r).issued_original),
    caDate(datesOf(r).expires),
    " ", "1", "Y", "12", " ", " ",
    blank(r.owner),
    blank(r.address.line_1),
    blank(r.address.line_2),
    blank(r.address.city),
    blank(r.address.state),
    blank(r.address.zip),
    r.business === r.owner ? " " : blank(r.business),
    " ", " ", " ", " ", " ",
    blank(r.address.county),
    " ",
  ]); // prettier-ignore
  const csv = `\uFEFF"Updated ${banner}"\n${Papa.unparse([header, ...rows], { newline: "\n" })}\n`;
  return Buffer.from(zipSync({ "ABC-DailyDataExport.csv": Buffer.from(csv) }));
}

/** DC GIS layer 5's features (section 7): their attributes, dates in milliseconds since 1970. */
export function dcLayerFeatures(records: readonly LicenseRecord[], edited: number): Record<string, unknown>[] {
  const title = (text: string) => text.replace(/\b\w/g, (c) => c.toUpperCase());
  const ms = (date: string | null) => (date ? Date.parse(`${date}T05:00:00Z`) : null);
  return records.map((r, index) => ({
    OBJECTID: index + 1,
    LICENSE: r.license,
    APPLICANT: r.owner,
    TRADE_NAME: r.business,
    CLASS: r.details.class ?? "",
    TYPE: r.details.type,
    // The street, unit and place in one line, as DC GIS's address points write a premises.
    ADDRESS:
      r.address.line_1 || r.address.city
        ? [
            [r.address.line_1, r.address.line_2].filter(Boolean).join(" "),
            r.address.city,
            `${r.address.state} ${r.address.zip}`.trim(),
          ]
            .filter(Boolean)
            .join(", ")
        : "",
    ZIPCODE: r.address.zip,
    WARD: null,
    STATUS: title(r.status),
    BREW_PUB: "N",
    EXPIRATION_DATE: ms(datesOf(r).expires) ?? ms("2027-09-30"),
    EDITED: edited,
  }));
}

/** MA ABCC's "Active Retail Licenses" as the legacy .xls it is published as (section 4), from rows of our CSV of it. */
export async function maRetailXls(csv: string): Promise<Buffer> {
  const xlsx = await import("@e965/xlsx");
  const { data } = Papa.parse<string[]>(csv.replace(/^\uFEFF/, ""), { skipEmptyLines: true });
  // The CSV holds the sheet's Excel date serials as 46387.0: cells of numbers again.
  const cells = data.map((row, i) => (i === 0 ? row : row.map((c) => (/^\d+\.0$/.test(c) ? Number(c) : c))));
  const book = xlsx.utils.book_new();
  xlsx.utils.book_append_sheet(book, xlsx.utils.aoa_to_sheet(cells), "Active Retail Licenses");
  return xlsx.write(book, { type: "buffer", bookType: "biff8" }) as Buffer;
}

/** A CSV's header and its first `rows` data rows (quoted fields may span lines). */
export function csvHead(csv: string, rows: number): string {
  const { data } = Papa.parse<string[]>(csv.replace(/^\uFEFF/, ""), { skipEmptyLines: true });
  return Papa.unparse(data.slice(0, rows + 1), { newline: "\n" }) + "\n";
}
