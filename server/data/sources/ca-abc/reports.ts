import { basename } from "node:path";
import type { StatusChange } from "./status-change.ts";
import { csvRows } from "../../readers/csv-rows.ts";
import type { RawRow } from "../../readers/table.ts";
import { SourceFileError, UnknownLayoutError } from "../source-adapter.ts";
import { sniffFormat } from "../../readers/sniff-format.ts";
import type { SourceFile } from "../../readers/source-file.ts";
import { tarMembers } from "../../readers/tar-members.ts";

/** One daily report: where it is, the day it reports, and its CSV rows. */
export interface DailyReport {
  /** `archive.tar.gz/downloads/2023-05-09/report-status-changes.csv`, or the CSV file's name. */
  name: string;
  /** How messages name it: the file's path, and the archive member's path. */
  shownAs: string;
  /** The day it reports: the last YYYY-MM-DD in its path; null when there is none. */
  date: string | null;
  rows: AsyncIterable<RawRow>;
}

const DAY = /\d{4}-\d{2}-\d{2}/g;

/**
 * The daily reports in a file: each CSV member of a tar(.gz) archive, or a CSV file itself. A
 * report's date is the last YYYY-MM-DD in its path (the ABC's report itself does not say it).
 */
export async function* dailyReports(file: SourceFile): AsyncGenerator<DailyReport> {
  const format = await sniffFormat(file.path);
  if (format === "zip" || format === "xls" || format === "sqlite")
    throw new UnknownLayoutError(
      `${file.path}: ${format === "sqlite" ? "a database" : "a workbook"}; expected daily report CSVs or a tar(.gz) of them`,
    );
  if (format === "text") {
    yield { name: file.name, shownAs: file.path, date: dayIn(file.path), rows: csvRows(file.open()) };
    return;
  }
  let reports = 0;
  for await (const member of tarMembers(file.open(), { gzip: format === "gzip" })) {
    if (!member.path.toLowerCase().endsWith(".csv")) continue;
    reports++;
    const shownAs = `${file.path}: ${member.path}`;
    yield { name: `${file.name}/${member.path}`, shownAs, date: dayIn(member.path), rows: csvRows(member.content) };
  }
  if (reports === 0)
    throw new UnknownLayoutError(`${file.path}: holds no .csv report; expected the ABC's daily status-change reports`);
}

function dayIn(path: string): string | null {
  return path.match(DAY)?.at(-1) ?? null;
}

/** The report's day; a report without one cannot be put in order, so it stops the import. */
export function reportDay(report: DailyReport): string {
  if (report.date) return report.date;
  throw new SourceFileError(
    `${report.shownAs}: cannot tell which day this report is for: put its date (YYYY-MM-DD) in its file or folder name, as in downloads/2023-05-09/${basename(report.name)}`,
  );
}

/**
 * Tells a change its day's reports already gave: the ABC lists some rows twice, one after the
 * other, and a day may be downloaded twice (downloads/2023-12-28 and downloads/A/2023-12-28, each
 * with rows the other lacks). A row is compared with the rows next to it of its license and with
 * the day's other reports: a lookup of every row read would slow the whole import.
 */
export class SameDayRepeats {
  private readonly byDay = new Map<string, StatusChange[]>();
  private today: StatusChange[] = [];
  /** The day's rows from its earlier reports, by license; null on a day's first report. */
  private earlier: Map<string, StatusChange[]> | null = null;
  /** The rows of the license being read: a report lists a license's rows together. */
  private run: StatusChange[] = [];

  startReport(day: string): void {
    const before = this.byDay.get(day);
    this.earlier = before ? byLicense(before) : null;
    if (!before) this.byDay.set(day, (this.today = []));
    else this.today = before;
    this.run = [];
  }

  /** Whether the change was given already that day; if not, it is noted. */
  isRepeat(change: StatusChange): boolean {
    if (this.run[0]?.license !== change.license) this.run = [];
    if (includes(this.run, change) || includes(this.earlier?.get(change.license), change)) return true;
    this.run.push(change);
    this.today.push(change);
    return false;
  }
}

function byLicense(changes: readonly StatusChange[]): Map<string, StatusChange[]> {
  const map = new Map<string, StatusChange[]>();
  for (const c of changes) {
    const list = map.get(c.license);
    if (list) list.push(c);
    else map.set(c.license, [c]);
  }
  return map;
}

function includes(changes: readonly StatusChange[] | undefined, change: StatusChange): boolean {
  for (const c of changes ?? []) if (sameChange(c, change)) return true;
  return false;
}

function sameChange(a: StatusChange, b: StatusChange): boolean {
  for (const key in a) if (a[key as keyof StatusChange] !== b[key as keyof StatusChange]) return false;
  return true;
}
