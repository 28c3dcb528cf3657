import { timeParts } from "../shared/dates.ts";

/** An entry's instant as the clerk saw it: in its own time zone, else UTC. `{ date: "March 3, 2027", time: "10:02 EST" }` */
export function entryTime(at: string, zone: string | null): { date: string; time: string } {
  return timeParts(at, zone && isZone(zone) ? zone : "UTC");
}

/** A zone the browser said may be one this browser does not know: then UTC, rather than no receipt. */
function isZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
