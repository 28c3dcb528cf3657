/**
 * `ca-abc`: California ABC daily "Status Changes" licensing reports, one CSV per day, given as
 * CSV files or as a tar(.gz) of them. Each row is one license type of one license changing status
 * ("PEND ACTIVE": from PEND to ACTIVE). All rows of all files are folded, in report-date order, into
 * each license's current state (fold.ts); the day of a report is the date in its path. The reports
 * repeat a change on later days and leave fields out: a repeat moves no date, a blank changes nothing.
 *
 * | field                 | from the reports of the license                                     | a later blank |
 * |-----------------------|---------------------------------------------------------------------|---------------|
 * | license               | License Number as written                                           | -             |
 * | business              | the `DBA:` part of Primary Owner and Premises Addr.; the owner when no report gives one | carries |
 * | owner                 | the owner part of Primary Owner and Premises Addr. (the part before Prem Street); "" when none gives one | carries |
 * | phone                 | null: none published                                                | -             |
 * | status                | the "to" word of Status Changed From/To through STATUSES; `active` while any type is active, else the status the last type to change took | - |
 * | address.line_1        | Prem Street up to its first comma; "" when no report gives premises | carries, with the whole address |
 * | address.line_2        | the rest of Prem Street (`STE F`, `#10`); null if none              | carries, with the whole address |
 * | address.city          | City                                                                | carries, with the whole address |
 * | address.county        | County, the ABC's code as the county's name (19 → Los Angeles); "" for out-of-state premises | carries, with the whole address |
 * | address.state         | the state of the postal line in Primary Owner and Premises Addr. (out-of-state shippers); else CA | carries, with the whole address |
 * | address.zip           | Zip Code                                                            | carries, with the whole address |
 * | dates.effective       | the first report of the current status (a repeat on a later day does not move it) | - |
 * | dates.expires         | Expir. Date of the types in the current status; if they never gave one, the license's last | carries |
 * | dates.issued_original | Original Issue Date, the same way; null when none was given (applications never issued) | carries |
 * | dates.issued_latest   | null: not reported                                                  | -             |
 * | details.class         | null: the ABC has no class apart from the type                      | -             |
 * | details.description   | null: the reports give type codes only, no names                    | -             |
 * | details.type          | the type code(s) from Type\| Dup in the license's current status, e.g. "41" or "41, 58" | - |
 *
 * A value a later report gives instead replaces it (a renewal's expiry, a new trade name). Names and
 * premises are the license's (its types' rows of a day never differ); dates are each type's.
 * A change listed twice on a day is counted once: a report repeats rows, and the 2023-24 archive holds
 * two downloads of 2023-12-28 and of 2024-01-23, each with rows the other lacks.
 *
 * Not used: Mailing Addr. and the mailing columns, Transfer-From/To, Conditions, Escrow, District
 * and Geo Code. As-of: the latest report date among the files. A date the reports leave blank is
 * null, never made up.
 */
import { foldLicense } from "./fold.ts";
import { reportedChanges } from "./history.ts";
import { dailyReports, reportDay, SameDayRepeats, type DailyReport } from "./reports.ts";
import { statusChangeReport } from "./status-change.ts";
import { mapStatus, type StatusTable } from "../../import/fields.ts";
import { readTable } from "../../readers/table.ts";
import { SourceFileError } from "../source-adapter.ts";
import type { SourceAdapter } from "../source-adapter.ts";

/** ABC status words with a plain meaning; the others (REVPEN, R64B, DEPREV, ...) are kept, lower-cased. */
export const STATUSES: StatusTable = {
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

const REPEATED = "repeated row (the same change of the license on the same day): counted once";

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
    const repeats = new SameDayRepeats();
    try {
      for await (const report of dailyReports(file)) {
        const table = await openReport(report);
        const day = reportDay(report);
        repeats.startReport(day);
        for await (const row of table.rows) {
          if ("skip" in row) yield row;
          else if (repeats.isRepeat(row.value)) yield { at: row.at, skip: REPEATED };
          else yield { at: row.at, license: row.value.license, facts: row.value, asOf: day, repairs: row.repairs };
        }
      }
    } catch (error) {
      throw asSourceError(file.path, error);
    }
  },

  fold: (observations) => foldLicense(observations, statusOf),
  history: (observations) => reportedChanges(observations, statusOf),
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
