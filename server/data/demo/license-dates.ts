import type { LicenseDates } from "../../../src/contract/license.ts";
import type { SeededRandom } from "./seeded-random.ts";

const DAY_MS = 86_400_000;

/** "Today" for demo data: fixed, so the same seed gives the same records whatever the clock says. */
export const DEMO_REFERENCE_DATE = "2026-11-01";
const TODAY = Date.parse(`${DEMO_REFERENCE_DATE}T00:00:00Z`) / DAY_MS;
/** No license in the demo data was first issued before this. */
const EARLIEST = Date.parse("1970-01-01T00:00:00Z") / DAY_MS;
/** Share of active licenses the state still lists as active after they expired. */
const LAPSED_ACTIVE_SHARE = 0.06;
/** Share of active licenses that expire within 60 days of the reference date. */
const EXPIRING_SOON_SHARE = 0.12;

/**
 * Dates for one license, in order: issued_original <= issued_latest <= effective < expires.
 * Expiry follows status: expired licenses ended in the past, active ones mostly run on, some
 * expire soon, and a few have lapsed while still listed as active. A pending application has
 * only the day it was received, as the states' application lists give (New York's, for one).
 */
export function licenseDates(rng: SeededRandom, status: string, termDays: number): LicenseDates {
  const expires = TODAY + expiryOffset(rng, status, termDays);
  const effective = expires - termDays;
  // Drawn for every status, so that a pending record leaves the numbers of the next ones as they were.
  const yearsHeld = rng.chance(0.2) ? 0 : rng.next() ** 2 * 40 * 365;
  const original = Math.max(EARLIEST, Math.min(effective, effective - Math.floor(yearsHeld)));
  const latest = rng.chance(0.15) ? null : Math.max(original, effective - rng.int(0, 45));
  if (status === "pending") {
    // Received 0 to 45 days before the reference date.
    return { effective: isoDay(2 * TODAY - effective), expires: null, issued_original: null, issued_latest: null };
  }
  return {
    effective: isoDay(effective),
    expires: isoDay(expires),
    issued_original: isoDay(original),
    issued_latest: latest === null ? null : isoDay(latest),
  };
}

/** Days from the reference date to expiry. */
function expiryOffset(rng: SeededRandom, status: string, termDays: number): number {
  switch (status) {
    case "active": {
      const r = rng.next();
      if (r < LAPSED_ACTIVE_SHARE) return -rng.int(1, 90);
      if (r < LAPSED_ACTIVE_SHARE + EXPIRING_SOON_SHARE) return rng.int(0, 60);
      return rng.int(61, Math.max(61, termDays));
    }
    case "expired":
      return -rng.int(1, 1800);
    case "pending":
      return termDays + rng.int(0, 45);
    case "suspended":
      return rng.int(-30, termDays);
    default:
      return rng.int(-2500, termDays);
  }
}

// Formatting a date is the slowest step per record, so each day is formatted once.
const formatted = new Map<number, string>();

function isoDay(day: number): string {
  let iso = formatted.get(day);
  if (iso === undefined) {
    iso = new Date(day * DAY_MS).toISOString().slice(0, 10);
    formatted.set(day, iso);
  }
  return iso;
}
