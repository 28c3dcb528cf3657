import { basename } from "node:path";
import { csvRows } from "../readers/csv-rows.ts";
import type { RawRow } from "../readers/table.ts";
import { SourceFileError, UnknownLayoutError } from "../source-adapter.ts";
import { sniffFormat } from "../readers/sniff-format.ts";
import type { SourceFile } from "../readers/source-file.ts";
import { tarMembers } from "../readers/tar-members.ts";

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
  if (format === "zip")
    throw new UnknownLayoutError(`${file.path}: a workbook; expected daily report CSVs or a tar(.gz) of them`);
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
