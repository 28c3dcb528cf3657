import { formatIsoDate } from "../contract/calendar-date.ts";

const DAY_MS = 86_400_000;

/** `updated_at` (`YYYY-MM-DD HH:MM:SS.ffffff`) as the service wrote it, readable, to the second. */
export function formatUpdatedAt(value: string): string {
  const [date = "", time = ""] = value.split(" ");
  return `${formatIsoDate(date)}, ${time.slice(0, 8)}`;
}

/** Today's calendar date where the reader is, as `YYYY-MM-DD`. */
export function localIsoDate(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** An instant (ISO 8601) as the reader's date and time to the minute: `November 22, 2026, 10:04`. */
export function formatLocalTime(iso: string): string {
  const at = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${formatIsoDate(localIsoDate(at))}, ${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** Whole days from `today` to `iso`; negative once it has passed. */
export function daysUntil(iso: string, today: string): number {
  return Math.round((Date.parse(iso) - Date.parse(today)) / DAY_MS);
}
