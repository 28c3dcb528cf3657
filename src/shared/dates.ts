const DAY_MS = 86_400_000;

// One formatter for every date: toLocaleDateString builds a new one each call, which made a watchlist of
// 10,000 licenses (two dates a verdict) take 2.5 s to draw.
const LONG_DATE = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });

// Each date written once: a page of results shows a few dates many times, and each format costs tens of µs.
const written = new Map<string, string>();

/** `2026-03-04` as `March 4, 2026`: a calendar date, so no time zone may shift it. */
export function formatIsoDate(iso: string): string {
  let text = written.get(iso);
  if (text === undefined) {
    const date = new Date(`${iso}T00:00:00Z`);
    // A date no calendar has (`2026-13-01`) is shown as written rather than taking the page down.
    text = Number.isNaN(date.getTime()) ? iso : LONG_DATE.format(date);
    // Calendar dates are few, but a long session over many lists is bounded all the same.
    if (written.size >= 10_000) written.clear();
    written.set(iso, text);
  }
  return text;
}

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
