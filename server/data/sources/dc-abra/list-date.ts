import { cellText } from "../../readers/cell-text.ts";
import type { FileHead } from "../roster-adapter.ts";
import type { AsOfFrom } from "../source-adapter.ts";

// The day an ABRA licensee list is as of. ABRA dates a list in a title row ("ABC Licensees as of
// August 4, 2016"), in its sheet's name ("ABC Licensees November 2005") and in the file's name
// (DistrictABCLicensees12132012.xls, ABCLicensees112005.xls, ...Aug2013.xlsx); some give a month only.

/** A day, or a month alone (`day` null). */
interface ListDate {
  year: number;
  month: number;
  day: number | null;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const MONTH = String.raw`(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?`;
const WRITTEN_DAY = new RegExp(String.raw`\b${MONTH}\s+(\d{1,2}),?\s+(\d{4})\b`, "i");
const NUMERIC_DAY = /\b(\d{1,2})[-/](\d{1,2})[-/](\d{4})\b/;
const WRITTEN_MONTH = new RegExp(String.raw`\b${MONTH}\s*,?\s*(\d{4})\b`, "i");
const NAME_MONTH = new RegExp(String.raw`${MONTH}[-_ ]?(\d{4})(?!\d)`, "i");
// The digits before the extension: a month and a year, or a month, a day and a year, unseparated.
const NAME_DIGITS = /(?:^|\D)(\d{1,4})((?:19|20)\d{2})\D*$/;

/**
 * The list's as-of date: a title row's date first; else the sheet name's where the file's name
 * agrees with it (or gives none); else the file's name where its digits read one way only. The
 * name wins over a sheet it contradicts: DistrictABCLicensees4252012.xls has a sheet named
 * "ABC Licensees April 25, 2016", a typo the workbook (made on 2012-04-25) and its place between
 * the lists of October 2011 and July 2012 give away. A month alone is as of its first day, and says so.
 */
export function listDate({ preamble, sheet, name }: FileHead): { asOf: string; asOfFrom: AsOfFrom } | null {
  const titled = preamble.flat().map(cellText).map(statedDate).find(Boolean);
  if (titled) return dated(titled, "stated");
  const inSheet = sheet === null ? null : statedDate(sheet);
  const named = nameDates(name);
  if (inSheet && (named.length === 0 || named.some((n) => sameDate(n, inSheet)))) return dated(inSheet, "stated");
  if (named.length === 1) return dated(named[0]!, "name");
  return inSheet ? dated(inSheet, "stated") : null;
}

function dated(date: ListDate, from: "stated" | "name"): { asOf: string; asOfFrom: AsOfFrom } {
  const asOf = `${date.year}-${pad(date.month)}-${pad(date.day ?? 1)}`;
  if (date.day === null) return { asOf, asOfFrom: "the first day of the month the file states" };
  return { asOf, asOfFrom: from === "stated" ? "stated in the file" : "the file's name" };
}

/** A date written in a title or a sheet name: "August 4, 2016", "8-27-2014", "November 2005". */
function statedDate(text: string): ListDate | null {
  const written = WRITTEN_DAY.exec(text);
  if (written) return day(Number(written[3]), monthOf(written[1]!), Number(written[2]));
  const numeric = NUMERIC_DAY.exec(text);
  if (numeric) return day(Number(numeric[3]), Number(numeric[1]), Number(numeric[2]));
  const month = WRITTEN_MONTH.exec(text);
  return month ? { year: Number(month[2]), month: monthOf(month[1]!), day: null } : null;
}

/** Every date a file's name can be read as: `112005` is November 2005 or January 1, 2005. */
function nameDates(name: string): ListDate[] {
  const base = name.replace(/\.[a-z]+$/i, "");
  const month = NAME_MONTH.exec(base);
  if (month) return [{ year: Number(month[2]), month: monthOf(month[1]!), day: null }];
  const digits = NAME_DIGITS.exec(base);
  if (!digits) return [];
  const [lead, year] = [digits[1]!, Number(digits[2])];
  const readings: (ListDate | null)[] = [];
  if (lead.length <= 2) readings.push(day(year, Number(lead), null));
  for (let split = 1; split < lead.length && split <= 2; split++) {
    readings.push(day(year, Number(lead.slice(0, split)), Number(lead.slice(split))));
  }
  return readings.filter((d) => d !== null);
}

function day(year: number, month: number, dayOfMonth: number | null): ListDate | null {
  if (month < 1 || month > 12) return null;
  if (dayOfMonth === null) return { year, month, day: null };
  const date = new Date(Date.UTC(year, month - 1, dayOfMonth));
  return date.getUTCMonth() === month - 1 && dayOfMonth >= 1 ? { year, month, day: dayOfMonth } : null;
}

function sameDate(a: ListDate, b: ListDate): boolean {
  return a.year === b.year && a.month === b.month && a.day === b.day;
}

function monthOf(name: string): number {
  return MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;
}

function pad(n: number): string {
  return String(n).padStart(2, "0");
}
