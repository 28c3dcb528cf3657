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

/**
 * An instant (ISO 8601) to the minute, with its zone, the one way every page writes a time:
 * `November 22, 2026, 10:04 EST`. In `zone` (IANA) when given, else where the reader is.
 */
export function formatLocalTime(iso: string, zone?: string): string {
  const { date, time } = timeParts(iso, zone);
  return `${date}, ${time}`;
}

/** An instant's date and its time with the zone, apart: `{ date: "March 3, 2027", time: "10:02 EST" }`. */
export function timeParts(iso: string, zone?: string): { date: string; time: string } {
  const instant = new Date(iso);
  const date = new Intl.DateTimeFormat("en-US", { timeZone: zone, dateStyle: "long" }).format(instant);
  const time = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZoneName: "short",
  }).format(instant);
  return { date, time };
}

/** Whole days from `today` to `iso`; negative once it has passed. */
export function daysUntil(iso: string, today: string): number {
  return Math.round((Date.parse(iso) - Date.parse(today)) / DAY_MS);
}
