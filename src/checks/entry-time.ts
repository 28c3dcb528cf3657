/** An entry's instant as the clerk saw it: in its own time zone, else UTC. `{ date: "March 3, 2027", time: "10:02 EST" }` */
export function entryTime(at: string, zone: string | null): { date: string; time: string } {
  const instant = new Date(at);
  const timeZone = zone && isZone(zone) ? zone : "UTC";
  const date = new Intl.DateTimeFormat("en-US", { timeZone, dateStyle: "long" }).format(instant);
  const time = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZoneName: "short",
  }).format(instant);
  return { date, time };
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
