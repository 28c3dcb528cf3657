import { cellText } from "./cell-text.ts";
import { RowProblem } from "../sources/source-adapter.ts";

/**
 * The date notations sources write: `us` 01/30/2013, `excel` a day serial (46387, "46387.0") or an
 * already decoded spreadsheet date, `iso` 2013-01-30 (a time part is ignored), `month-name` Jul 01, 2019
 * (or Jul 1,2019: the PLCB writes no space after the comma).
 */
export type DateFormat = "us" | "excel" | "iso" | "month-name";

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const US = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][\d:.]+Z?)?$/;
const SERIAL = /^\d+(?:\.\d+)?$/;
const MONTH_NAME = /^([A-Za-z]{3})[a-z]* (\d{1,2}), ?(\d{4})$/;
const DAY_MS = 86_400_000;
// Day 0 of the 1900 date system as Excel counts it from March 1900 on (its phantom 1900-02-29 aside).
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
// 9999-12-31, the last day Excel can show.
const EXCEL_LAST_SERIAL = 2_958_465;

/**
 * A date as `YYYY-MM-DD`, read in one of the formats the source is known to use. Empty means
 * absent (null); anything else that is not a real calendar date is a RowProblem naming `label`.
 */
export function readDate(value: unknown, label: string, formats: readonly DateFormat[]): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date && formats.includes("excel")) return fromUtcDate(value, label);
  if (typeof value === "number" && formats.includes("excel")) return fromSerial(value, label);
  const text = cellText(value);
  if (text === "") return null;
  for (const format of formats) {
    const date = parseText(text, format);
    if (date !== undefined) return date ?? unreadable(label);
  }
  return unreadable(label);
}

// Files repeat the same few thousand dates; each text is parsed once per format.
const MEMO_LIMIT = 50_000;
const memo: Record<DateFormat, Map<string, string | null | undefined>> = {
  us: new Map(),
  excel: new Map(),
  iso: new Map(),
  "month-name": new Map(),
};

function parseText(text: string, format: DateFormat): string | null | undefined {
  const known = memo[format];
  if (known.has(text)) return known.get(text);
  const date = parseTextOnce(text, format);
  if (known.size >= MEMO_LIMIT) known.clear();
  known.set(text, date);
  return date;
}

/** undefined: not this format; null: this format, but no such day. */
function parseTextOnce(text: string, format: DateFormat): string | null | undefined {
  switch (format) {
    case "us": {
      const m = US.exec(text);
      return m ? calendarDate(+m[3]!, +m[1]!, +m[2]!) : undefined;
    }
    case "iso": {
      const m = ISO.exec(text);
      return m ? calendarDate(+m[1]!, +m[2]!, +m[3]!) : undefined;
    }
    case "excel":
      return SERIAL.test(text) ? serialDate(Number(text)) : undefined;
    case "month-name": {
      const m = MONTH_NAME.exec(text);
      if (!m) return undefined;
      const month = MONTHS.indexOf(m[1]!.toLowerCase()) + 1;
      return month ? calendarDate(+m[3]!, month, +m[2]!) : null;
    }
  }
}

function calendarDate(year: number, month: number, day: number): string | null {
  if (!(year >= 1000 && year <= 9999)) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

function serialDate(serial: number): string | null {
  // A fraction is a time of day; serials up to 60 fall in Excel's broken early 1900 and are not dates a license has.
  if (!Number.isFinite(serial) || serial <= 60 || serial > EXCEL_LAST_SERIAL + 0.99999) return null;
  return new Date(EXCEL_EPOCH_MS + Math.floor(serial) * DAY_MS).toISOString().slice(0, 10);
}

function fromSerial(serial: number, label: string): string {
  return serialDate(serial) ?? unreadable(label);
}

// Spreadsheets repeat their dates as text files do: each instant becomes a day once.
const dayOfInstant = new Map<number, string | null>();

function fromUtcDate(date: Date, label: string): string {
  const time = date.getTime();
  let day = dayOfInstant.get(time);
  if (day === undefined) {
    // Spreadsheet readers decode a date cell as that day at 00:00 UTC (plus any time of day).
    day = calendarDate(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
    if (dayOfInstant.size >= MEMO_LIMIT) dayOfInstant.clear();
    dayOfInstant.set(time, day);
  }
  return day ?? unreadable(label);
}

function unreadable(label: string): never {
  throw new RowProblem(`unreadable ${label}`);
}
