import { CODE_NOT_IN_TABLE, codeNames, statusGloss } from "../contract/decoding/decode.ts";
import type { CodeKind, DecodingTable } from "../contract/decoding/decoding-table.ts";
import type { HistoryChange, LicenseHistory } from "../contract/envelopes.ts";
import { IsoDateSchema } from "../contract/license.ts";
import { formatIsoDate } from "../contract/calendar-date.ts";

type Field = HistoryChange["field"];

const LABELS: Record<Field, string> = {
  status: "Status",
  business: "Business name",
  owner: "Owner",
  address: "Address",
  phone: "Phone",
  type: "Type",
  class: "Class",
  effective: "Effective date",
  expires: "Expiry date",
  issued_original: "First issue date",
  issued_latest: "Last issue date",
};

/** How a first sighting's values read in one line, in the order a clerk reads a license. */
const FIRST_SEEN: [Field, (value: string) => string][] = [
  ["business", (v) => v],
  ["owner", (v) => `owned by ${v}`],
  ["type", (v) => `type ${v}`],
  ["class", (v) => `class ${v}`],
  ["status", (v) => `status ${v}`],
  ["address", (v) => `at ${v}`],
  ["phone", (v) => `phone ${v}`],
  ["effective", (v) => `effective ${v}`],
  ["expires", (v) => `expiring ${v}`],
  ["issued_original", (v) => `first issued ${v}`],
  ["issued_latest", (v) => `last issued ${v}`],
];

/** A value as the license page shows it: status words and code names from the state's table, dates in words. */
function valueWords(decoding: DecodingTable | null, field: Field, value: string | null): string {
  if (value === null || value.trim() === "") return "none given";
  if (field === "status") {
    const gloss = statusGloss(decoding, value);
    return gloss ? `${value} (${gloss})` : value;
  }
  if (field === "type" || field === "class") return codeWords(decoding, field, value);
  return IsoDateSchema.safeParse(value).success ? formatIsoDate(value) : value;
}

/** "41 (On-Sale Beer & Wine - Eating Place)"; as written where the state's table has no such codes. */
function codeWords(decoding: DecodingTable | null, kind: CodeKind, value: string): string {
  if (!decoding?.codes[kind]) return value;
  return codeNames(decoding, kind, value)
    .map((c) => `${c.code} (${"name" in c ? c.name : CODE_NOT_IN_TABLE})`)
    .join(", ");
}

/**
 * One change in a sentence: "Owner changed from X to Y"; for a source that follows each license type
 * apart, "Type 41 (On-Sale Beer & Wine - Eating Place): cancelled, was active".
 */
export function changeWords(decoding: DecodingTable | null, change: HistoryChange): string {
  const { field, license_type: type, from, to } = change;
  const was = valueWords(decoding, field, from);
  const now = valueWords(decoding, field, to);
  if (type !== null) {
    const ofType = `Type ${codeWords(decoding, "type", type)}`;
    if (field !== "status") return `${ofType}: ${lowerFirst(fieldChange(field, from, to, was, now))}`;
    if (from === null) return `${ofType}: ${now}`;
    return to === null ? `${ofType}: no status given (was ${was})` : `${ofType}: ${now}, was ${was}`;
  }
  return fieldChange(field, from, to, was, now);
}

function fieldChange(field: Field, from: string | null, to: string | null, was: string, now: string): string {
  if (from === null) return `${LABELS[field]}: ${now} (none given before)`;
  if (to === null) return `${LABELS[field]} no longer given (was ${was})`;
  return `${LABELS[field]} changed from ${was} to ${now}`;
}

/**
 * What a license was seen as, in one line: "District Liquors, owned by Don Ho Inc, class A, at …". The
 * values a first sighting gives (`to`, with nothing before), or those a list last gave of a license
 * it no longer names (`from`, with nothing after).
 */
export function valuesWords(
  decoding: DecodingTable | null,
  changes: readonly HistoryChange[],
  side: "to" | "from",
): string {
  const other = side === "to" ? "from" : "to";
  const given = changes.filter((c) => c[other] === null && c.license_type === null && c[side]?.trim());
  const own = FIRST_SEEN.flatMap(([field, say]) =>
    given.filter((c) => c.field === field).map((c) => say(valueWords(decoding, field, c[side]))),
  );
  const byType = changes
    .filter((c) => c[other] === null && c.license_type !== null)
    .map((c) => lowerFirst(changeWords(decoding, c)));
  return [...own, ...byType].join(", ");
}

/**
 * Where the history ends with a complete list no longer naming the license: that list's date, and the
 * date of the last list that did name it. Null when the newest thing the history says is anything else.
 */
export function noLongerListed(history: LicenseHistory): { since: string | null; last: string | null } | null {
  const newest = history.entries[0];
  if (newest?.event !== "no_longer_listed") return null;
  return { since: newest.date, last: history.listings.at(-1)?.to ?? newest.since };
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
