import { IsoDateSchema, type License } from "../contract/license.ts";
import { NO_LONGER_LISTED, type WatchChange, type WatchField } from "../contract/watchlist.ts";
import { formatIsoDate } from "../contract/calendar-date.ts";
import { lastSeenWords } from "../contract/watched-verdict.ts";

const LABELS: Record<Exclude<WatchField, "listing">, string> = {
  status: "Status",
  expires: "Expiry date",
  business: "Business name",
  owner: "Owner",
  address: "Address",
};

function valueWords(value: string): string {
  return IsoDateSchema.safeParse(value).success ? formatIsoDate(value) : value;
}

/**
 * One change a check found, in a clerk's words: "Expiry moved from March 31, 2026 to March 31, 2028",
 * "Owner changed from X to Y", "No longer listed: …". `record` is the license as last seen, if kept.
 */
export function changeWords({ field, from, to }: WatchChange, record: License | null): string {
  if (field === "listing") {
    if (to !== NO_LONGER_LISTED) return "Listed again: the service returns this license again";
    const seen = record ? ` (last seen as ${lastSeenWords(record)})` : "";
    return `No longer listed: the service no longer returns this license${seen}`;
  }
  const label = LABELS[field];
  if (from === null || from.trim() === "") return `${label} now given: ${to === null ? "none" : valueWords(to)}`;
  if (to === null || to.trim() === "") return `${label} no longer given (was ${valueWords(from)})`;
  if (field === "expires") return `Expiry moved from ${valueWords(from)} to ${valueWords(to)}`;
  return `${label} changed from ${valueWords(from)} to ${valueWords(to)}`;
}
