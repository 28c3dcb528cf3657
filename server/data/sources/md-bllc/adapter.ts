/**
 * `md-bllc`: the Board of Liquor License Commissioners for Baltimore City (BLLC) licensee table,
 * "Liquor Licenses" on Open Baltimore (Socrata's CSV export), license years 2014 and 2015. Maryland
 * has no statewide retail roster: each county's board (and the city's) licenses its own.
 *
 * The table has a row per licensee: a license names up to three people, each on a row of their own.
 * The rows of one (LicenseYear, LicenseClass, LicenseNumber) are one license; each row after its
 * first counts as a repair (a further licensee, named in its owner), so the summary accounts for
 * every row, and a row's own repairs name that row. The board numbers a license anew each year
 * (SCORES BALTIMORE is AE 6 in 2014, AE 5 in 2015), so each year's is a record of its own, keyed as
 * a clerk reads the certificate: `2015-AE-5` (year, class as written, number; letters, digits and
 * dashes only, so it is its own URL path segment).
 *
 * | field                 | column                                                                 |
 * |-----------------------|------------------------------------------------------------------------|
 * | license               | LicenseYear-LicenseClass-LicenseNumber: 2015-AE-5, 2015-LA-2-3 (class LA-2) |
 * | business              | TradeName; else CorpName; else the people (NULL, N/A and T/A are blanks) |
 * | owner                 | each licensee's LicenseeFirstName LicenseeLastName, in file order, joined with "; ", then " for the use of " CorpName when it has one: Maryland issues a license to people for the use of a company |
 * | phone                 | null: none published                                                   |
 * | status                | LicenseStatus lower-cased (renewed, transferred, closed): the first of the license's rows that gives one; "" with a repair where every row says NULL |
 * | address.line_1        | AddrStreet as written (2426-32 CHARLES STREET NORTH); a placeholder for a missing house number (N/A BELVEDERE & PARK HEIGHTS, ". HARBORPLACE ...") dropped, a repair |
 * | address.line_2        | null: the street is one column                                         |
 * | address.city          | BALTIMORE: the board licenses Baltimore City alone (there is no city column) |
 * | address.county        | BALTIMORE CITY, the county-level city                                  |
 * | address.state         | MD                                                                     |
 * | address.zip           | AddrZip through `zipCode`                                              |
 * | dates.effective       | LicenseDate: the license year's first day (05/01 or 07/01), or the day of a transfer |
 * | dates.expires         | LicenseEndDate (04/30 or 06/30 of the next year)                       |
 * | dates.issued_original | null: not published                                                    |
 * | dates.issued_latest   | null: not published                                                    |
 * | details.class         | LicenseClass as written (LBD7, LA-2, WD, AE ...); md.json names each   |
 * | details.type          | SubClass, what may be sold: BWL, BW, B, or AE (adult entertainment)     |
 * | details.description   | EstablishmentDesc, with Description and DayPerWeek where given: "Tavern (Beer, Wine, & Liquor, 7 days)"; a DayPerWeek that is not "N days" (the zoo's "every") is left out |
 *
 * A transfer in the year gives the license a second certificate (T0898 beside 898; TT0277 after
 * T0277): its rows are the license, and the earlier certificate's rows are skipped, each with its
 * reason. Certificates are ordered by their Ts, then LicenseDate: a transfer's certificate can carry
 * a date before the year's renewal (2015-LA-84: T0347 of 04/21/2015, 347 of 05/01/2015). Rows of one
 * certificate that disagree in a fact other than the person (MOBTOWN BALLROOM's two addresses) keep
 * the first row's, a repair. Names and streets with spaces around or doubled inside are tidied, a
 * repair. Not used: LicenseFee, CertificateNumber (but to order certificates), Location 1 (street,
 * ZIP and coordinates on three lines, `&` written `&amp;`). As of: the newest transfer date (a
 * renewal's date is its term's first day, which can lie ahead of an export).
 */
import { presentText } from "../../readers/cell-text.ts";
import { readTableFile, openTableFile, tableLayout } from "../../readers/table.ts";
import { dateOrEmpty, tidyCells, zipCode, type Mends } from "../../import/fields.ts";
import {
  newestFacts,
  RowProblem,
  type FileInspection,
  type RowOutcome,
  type RowRef,
  type SourceAdapter,
  type SourceRecord,
} from "../source-adapter.ts";

const BLANKS: ReadonlySet<string> = new Set(["NULL", "N/A", "T/A"]);

export const MD_REPAIRS = {
  noStatus: "LicenseStatus NULL on every row of the license: status left empty",
  statusFromOthers: "LicenseStatus NULL on some of the license's rows: taken from a row that gives it",
  rowsDiffer: "the license's rows (one per licensee) differ in more than the person: the first row's facts kept",
  streetNumber: "AddrStreet's house number is a placeholder (N/A, .): the street kept without it",
  furtherLicensee:
    "a further licensee's row of a license on an earlier row (the board lists one row per person): named in that license's owner",
} as const;

// AddrStreet is the house number and the street joined: where the board had no number, a blank, a
// dot or N/A stands in its place (" LEXINGTON MARKET", ". HARBORPLACE - 301 LIGHT ST.").
const NO_HOUSE_NUMBER = /^(?:N\/A|NULL|\.)\s+/;

export const MD_SKIPS = {
  transferred:
    "a licensee row of the certificate a transfer in the year replaced: the transfer's certificate is the license",
  repeated: "repeated row (the same licensee of the same license): counted once",
} as const;

/** One row of the table: one licensee of one license's certificate. */
interface LicenseeRow {
  license: string;
  certificate: string;
  person: string;
  status: string;
  corp: string | null;
  /** The license as this row alone has it, but for its owner and status. */
  record: SourceRecord;
}

// The board's headers, by what each column is for.
const COLUMNS = {
  licenseClass: "LicenseClass",
  subClass: "SubClass",
  number: "LicenseNumber",
  start: "LicenseDate",
  end: "LicenseEndDate",
  year: "LicenseYear",
  certificate: "CertificateNumber",
  status: "LicenseStatus",
  first: "LicenseeFirstName",
  last: "LicenseeLastName",
  trade: "TradeName",
  corp: "CorpName",
  establishment: "EstablishmentDesc",
  days: "DayPerWeek",
  beverages: "Description",
  street: "AddrStreet",
  zip: "AddrZip",
};
type Column = keyof typeof COLUMNS;

const licensees = tableLayout({
  name: "BLLC liquor licenses, a row per licensee",
  columns: COLUMNS,
  toValue(row): LicenseeRow {
    const text = tidyCells(row);
    const present = (key: Column) => presentText(text(key), BLANKS);
    const license = licenseKey(text("year"), text("licenseClass"), text("number"));
    const corp = present("corp");
    const person = [present("first"), present("last")].filter(Boolean).join(" ");
    const days = present("days");
    const sold = [present("beverages"), days && /^\d days$/.test(days) ? days : null].filter(Boolean).join(", ");
    const establishment = present("establishment");
    return {
      license,
      certificate: text("certificate"),
      person,
      status: present("status")?.toLowerCase() ?? "",
      corp,
      record: {
        license,
        business: present("trade") ?? corp ?? "",
        owner: "",
        phone: null,
        state: "md",
        status: "",
        address: {
          line_1: streetOf(present("street") ?? "", row),
          line_2: null,
          city: "BALTIMORE",
          county: "BALTIMORE CITY",
          state: "MD",
          zip: zipCode(text("zip"), "MD", row),
        },
        dates: {
          effective: dateOrEmpty(text("start"), "LicenseDate", ["us"], row),
          expires: dateOrEmpty(text("end"), "LicenseEndDate", ["us"], row),
          issued_original: null,
          issued_latest: null,
        },
        details: {
          class: text("licenseClass"),
          description: establishment && (sold ? `${establishment} (${sold})` : establishment),
          type: text("subClass"),
        },
      },
    };
  },
});

function streetOf(street: string, row: Mends): string {
  if (!NO_HOUSE_NUMBER.test(street)) return street;
  row.repaired(MD_REPAIRS.streetNumber);
  return street.replace(NO_HOUSE_NUMBER, "");
}

/** `2015-AE-5`: the year, the class and the number the board gave the license that year. */
function licenseKey(year: string, licenseClass: string, number: string): string {
  if (number === "" || presentText(number, BLANKS) === null) throw new RowProblem("no license number");
  if (!/^[1-9]\d*$/.test(number)) throw new RowProblem(`LicenseNumber is not a whole number (${number})`);
  if (!/^\d{4}$/.test(year)) throw new RowProblem(`no license year (${year})`);
  if (!/^[A-Z0-9]+(?:-[A-Z0-9]+)*$/.test(licenseClass)) throw new RowProblem(`no license class (${licenseClass})`);
  return `${year}-${licenseClass}-${number}`;
}

interface ReadRow {
  at: RowRef;
  row: LicenseeRow;
  repairs: readonly string[];
}

/** What a license's rows make: the license, at the first row of its certificate, and the rows it leaves out. */
function foldLicense(rows: readonly ReadRow[]): RowOutcome[] {
  const skips: RowOutcome[] = [];
  const seen = new Set<string>();
  const distinct = rows.filter(({ at, row }) => {
    const same = JSON.stringify(row);
    if (!seen.has(same)) return seen.add(same);
    skips.push({ at, skip: MD_SKIPS.repeated });
    return false;
  });
  const certificate = latestCertificate(distinct);
  const held = distinct.filter(({ row }) => row.certificate === certificate);
  const replaced = distinct.filter(({ row }) => row.certificate !== certificate);
  skips.push(...replaced.map(({ at }) => ({ at, skip: MD_SKIPS.transferred })));

  const [first] = held;
  const repairs: { reason: string; at: RowRef }[] = held.flatMap((r) =>
    r.repairs.map((reason) => ({ reason, at: r.at })),
  );
  for (const { at } of held.slice(1)) repairs.push({ reason: MD_REPAIRS.furtherLicensee, at });
  const facts = (r: ReadRow) => JSON.stringify([r.row.record, r.row.corp]);
  const differing = held.find((r) => facts(r) !== facts(first!));
  if (differing) repairs.push({ reason: MD_REPAIRS.rowsDiffer, at: differing.at });
  const statuses = held.map((r) => r.row.status);
  const status = statuses.find((s) => s !== "") ?? "";
  if (status === "") repairs.push({ reason: MD_REPAIRS.noStatus, at: first!.at });
  else if (statuses.includes("")) {
    repairs.push({ reason: MD_REPAIRS.statusFromOthers, at: held[statuses.indexOf("")]!.at });
  }

  const people = [...new Set(held.map((r) => r.row.person).filter(Boolean))];
  const { corp, record } = first!.row;
  const owner = [people.join("; "), corp].filter(Boolean).join(" for the use of ");
  const license: SourceRecord = { ...record, business: record.business || owner, owner, status };
  return [...skips, { at: first!.at, license: license.license, facts: license, repairs, rows: held.length }];
}

/** The certificate a license holds last in its year: the most transfers (T, TT ...), then the latest date. */
function latestCertificate(rows: readonly ReadRow[]): string {
  const order = ({ row }: ReadRow) =>
    `${/^T*/.exec(row.certificate)![0].length}|${row.record.dates.effective ?? ""}|${row.certificate}`;
  return rows.reduce((latest, r) => (order(r) > order(latest) ? r : latest)).row.certificate;
}

/** "Baltimore City only, license years 2014 and 2015 (...)". */
function coverage(records: readonly SourceRecord[]): string {
  const years = [...new Set(records.map((r) => r.license.slice(0, 4)))].sort();
  const listed = years.length > 1 ? `${years.slice(0, -1).join(", ")} and ${years.at(-1)}` : (years[0] ?? "");
  return `Baltimore City only, license years ${listed} (the board re-numbers licenses each year)`;
}

export const mdBllc: SourceAdapter = {
  name: "md-bllc",
  state: "md",
  agency: "Board of Liquor License Commissioners for Baltimore City",
  description: "MD Baltimore City liquor board: licenses, a row per licensee (CSV), folded by year, class and number",
  kind: "roster",

  async inspect(file): Promise<FileInspection> {
    await (await openTableFile(file, [licensees])).close();
    return {
      layout: licensees.name,
      title: "Baltimore City Liquor Licenses",
      family: "md-bllc: liquor licenses",
      asOf: null,
      coverage: (read) => coverage(read.records()),
      datesBeforeExport: (record) => (record.status === "transferred" ? [record.dates.effective] : []),
    };
  },

  async *read(file) {
    // A license's rows are anywhere in the file: it is read whole before a license is made.
    const byLicense = new Map<string, ReadRow[]>();
    for await (const outcome of readTableFile(file, [licensees])) {
      if ("skip" in outcome) {
        yield outcome;
        continue;
      }
      const rows = byLicense.get(outcome.value.license) ?? [];
      rows.push({ at: outcome.at, row: outcome.value, repairs: outcome.repairs ?? [] });
      byLicense.set(outcome.value.license, rows);
    }
    for (const rows of byLicense.values()) yield* foldLicense(rows);
  },

  fold: newestFacts,
};
