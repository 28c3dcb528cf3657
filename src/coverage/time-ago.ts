const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** A service timestamp (`YYYY-MM-DD HH:MM:SS.ffffff`, UTC) as an ISO 8601 instant. */
export function serviceInstant(value: string): string {
  return `${value.slice(0, 10)}T${value.slice(11, 23)}Z`;
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"} ago`;

/**
 * How long before `now` a service timestamp was, as a person says it: "just now", "5 minutes ago", "2 hours ago",
 * "3 days ago". A time ahead of the reader's clock (a clock set wrong) reads "just now" rather than a time to come.
 */
export function timeAgo(value: string, now: number): string {
  const ms = now - Date.parse(serviceInstant(value));
  if (Number.isNaN(ms)) return `at ${value}`;
  if (ms < MINUTE_MS) return "just now";
  if (ms < HOUR_MS) return plural(Math.floor(ms / MINUTE_MS), "minute");
  if (ms < DAY_MS) return plural(Math.floor(ms / HOUR_MS), "hour");
  return plural(Math.floor(ms / DAY_MS), "day");
}
