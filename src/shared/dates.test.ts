import { afterEach, describe, expect, it } from "vitest";
import { formatIsoDate } from "../contract/calendar-date.ts";
import { daysUntil, formatLocalTime, formatUpdatedAt, localIsoDate } from "./dates.ts";

const zone = process.env.TZ;
afterEach(() => {
  process.env.TZ = zone;
});

describe("dates as every page shows them", () => {
  it("writes a calendar date the same way in every time zone, the day never shifted", () => {
    for (const tz of ["Pacific/Honolulu", "UTC", "Pacific/Kiritimati"]) {
      process.env.TZ = tz;
      expect(formatIsoDate("2026-03-04")).toBe("March 4, 2026");
      expect(formatIsoDate("2016-12-31")).toBe("December 31, 2016");
    }
  });

  it("shows a date no calendar has as the record wrote it, rather than failing the page", () => {
    expect(formatIsoDate("2026-13-01")).toBe("2026-13-01");
  });

  it("writes the load time to the second", () => {
    expect(formatUpdatedAt("2026-11-22 02:33:02.123000")).toBe("November 22, 2026, 02:33:02");
  });

  it("writes an instant as the reader's date and time, to the minute, with the zone", () => {
    process.env.TZ = "America/New_York";
    expect(formatLocalTime("2026-11-22T15:04:59.000Z")).toBe("November 22, 2026, 10:04 EST");
    expect(formatLocalTime("2026-11-22T03:00:00Z")).toBe("November 21, 2026, 22:00 EST");
    expect(formatLocalTime("2026-07-04T16:00:00Z")).toBe("July 4, 2026, 12:00 EDT");
    process.env.TZ = "UTC";
    expect(formatLocalTime("2026-11-22T15:04:59.000Z")).toBe("November 22, 2026, 15:04 UTC");
    // In the zone the clerk was in, whatever the reader's.
    expect(formatLocalTime("2026-11-22T15:04:59.000Z", "America/Los_Angeles")).toBe("November 22, 2026, 07:04 PST");
  });

  it("takes today where the reader is, and counts whole days to a date", () => {
    process.env.TZ = "America/New_York";
    // 03:00 UTC on the 22nd is still the 21st in New York.
    const today = localIsoDate(new Date("2026-11-22T03:00:00Z"));
    expect(today).toBe("2026-11-21");
    expect(daysUntil("2026-11-21", today)).toBe(0);
    expect(daysUntil("2026-12-31", today)).toBe(40);
    expect(daysUntil("2026-11-20", today)).toBe(-1);
  });
});
