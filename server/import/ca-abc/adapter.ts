/**
 * `ca-abc`: California ABC daily "Status Changes" licensing reports, one CSV per day, given as
 * CSV files or as a tar(.gz) of them. Each row is one license type of one license changing status
 * ("PEND ACTIVE": from PEND to ACTIVE). All rows of all files are folded, in report-date order, into
 * each license's latest state (ca-fold.ts); the day of a report is the date in its path.
 *
 * | field                 | from the row that decides the license's state                       |
 * |-----------------------|---------------------------------------------------------------------|
 * | license               | License Number as written                                           |
 * | business              | the `DBA:` part of Primary Owner and Premises Addr.; the owner when there is none |
 * | owner                 | the owner part of Primary Owner and Premises Addr.; "" when the agency packs none |
 * | phone                 | null: none published                                                |
 * | status                | the "to" word of Status Changed From/To through STATUSES; `active` while any type is active |
 * | address.line_1        | Prem Street up to its first comma; "" when the report gives no premises |
 * | address.line_2        | the rest of Prem Street (`STE F`, `#10`); null if none              |
 * | address.city          | City; "" when no premises                                           |
 * | address.county        | County, the ABC's code as the county's name (19 → Los Angeles); "" when none (out-of-state premises) |
 * | address.state         | the state of the postal line in Primary Owner and Premises Addr. (out-of-state shippers); CA when the row gives no premises |
 * | address.zip           | Zip Code; "" when none                                              |
 * | dates.effective       | the report date of the deciding change: the day the current status took effect |
 * | dates.expires         | Expir. Date; null when blank                                        |
 * | dates.issued_original | Original Issue Date; if blank, the latest one another row of the license gave; null if none did (applications never issued) |
 * | dates.issued_latest   | null: not reported                                                  |
 * | details.class         | null: the ABC has no class apart from the type                      |
 * | details.description   | null: the reports give type codes only, no names                    |
 * | details.type          | the type code(s) from Type\| Dup in the license's current status, e.g. "41" or "41, 58" |
 *
 * Not used: Mailing Addr. and the mailing columns, Transfer-From/To, Conditions, Escrow, District
 * and Geo Code. As-of: the latest report date among the files. A date the reports leave blank is
 * null, never made up.
 */
import { foldLicense } from "./fold.ts";
import { dailyReports, reportDay, type DailyReport } from "./reports.ts";
import { statusChangeReport } from "./status-change.ts";
import { mapStatus, type StatusTable } from "../fields.ts";
import { readTable } from "../readers/table.ts";
import { SourceFileError } from "../source-adapter.ts";
import type { SourceAdapter } from "../source-adapter.ts";

/** ABC status words with a plain meaning; the others (REVPEN, R64B, DEPREV, ...) are kept, lower-cased. */
const STATUSES: StatusTable = {
  ACTIVE: "active",
  PEND: "pending",
  PENDING: "pending",
  CANCEL: "cancelled",
  SUREND: "surrendered",
  SUSPEN: "suspended",
  AUTREV: "revoked",
  NREN: "expired",
  WITHDRAWN: "withdrawn",
  WTHDRN: "withdrawn",
  DENIED: "denied",
};

const statusOf = (raw: string) => mapStatus(raw, STATUSES);

export const caAbc: SourceAdapter = {
  name: "ca-abc",
  state: "ca",
  agency: "California Department of Alcoholic Beverage Control",
  description: "CA ABC: daily status-change reports (CSVs, or a tar/.tar.gz of them), folded by license",
  kind: "changes",

  async inspect(file) {
    // The first report's layout and day; the others are checked as they are read (a whole pass
    // over the archive here cost a fifth of the import). Each row carries its report's day, and
    // the file's date is the last of them.
    try {
      for await (const report of dailyReports(file)) {
        await (await openReport(report)).close();
        reportDay(report);
        break;
      }
    } catch (error) {
      throw asSourceError(file.path, error);
    }
    return {
      layout: statusChangeReport.name,
      title: "ABC Daily Licensing Reports: Status Changes",
      family: "ca-abc: status changes",
      asOf: null,
      coverage: ({ first, last }) =>
        `licenses whose status changed between ${first ?? "?"} and ${last ?? "?"}: a license with no change in that time is not in it`,
      // Each report states its day.
      datesBeforeExport: () => [],
    };
  },

  async *read(file) {
    try {
      for await (const report of dailyReports(file)) {
        const table = await openReport(report);
        const day = reportDay(report);
        for await (const row of table.rows) {
          yield "skip" in row
            ? row
            : {
                at: row.at,
                license: row.value.license,
                facts: row.value,
                asOf: day,
                repairs: row.repairs,
              };
        }
      }
    } catch (error) {
      throw asSourceError(file.path, error);
    }
  },

  fold: (observations) => foldLicense(observations, statusOf),
};

function openReport(report: DailyReport) {
  return readTable({ name: report.name, path: report.shownAs }, report.rows, [statusChangeReport], {
    fixedWidth: true,
  });
}

function asSourceError(path: string, error: unknown): SourceFileError {
  if (error instanceof SourceFileError) return error;
  return new SourceFileError(`${path}: cannot be read: ${(error as Error).message}`);
}
