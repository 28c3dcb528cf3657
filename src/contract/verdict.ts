import { statusCategory, statusInTable, type DecodedStatus } from "./decoding/decode.ts";
import type { DecodingTable } from "./decoding/decoding-table.ts";
import { licenseDates, type License } from "./license.ts";
import { stateName } from "./states.ts";
import { formatIsoDate } from "./calendar-date.ts";

/** The words are fixed: exports, tests and other teams' tools rely on them. */
export const VERDICTS = ["valid", "expired", "inactive", "pending", "check", "not found", "not covered"] as const;
export type VerdictWord = (typeof VERDICTS)[number];

export interface Verdict {
  verdict: VerdictWord;
  /** Why, in one sentence a clerk can repeat. */
  reason: string;
}

export interface LicenseVerdict extends Verdict {
  status: DecodedStatus;
}

export interface VerdictContext {
  /** Today's date where the clerk is, `YYYY-MM-DD`. */
  today: string;
  /** The date the record's source says it was true on; null when the service does not give it. */
  asOf: string | null;
  /** The state's decoding table; null for a state we hold none for (plain status words still count). */
  decoding: DecodingTable | null;
}

/**
 * What a license record means today, from its status, its expiry, today's date and the age of its
 * data: the one rule behind every badge, row and printout. It claims only what the data, as of its
 * date, can know. A status not in force says inactive; an expiry the data itself lists as passed
 * says expired; an expiry that passed after the data's date says check (it may have been renewed since);
 * an application or an in-force record in data more than a year old says check; only an in-force record
 * with a current expiry and data at most a year old is valid.
 */
export function licenseVerdict(license: License, { today, asOf, decoding }: VerdictContext): LicenseVerdict {
  const status = statusCategory(decoding, license.status);
  const { expires, effective } = licenseDates(license);
  const said = license.status.trim() ? `“${license.status.trim()}”` : "no status";
  const verdict = (verdict: VerdictWord, reason: string): LicenseVerdict => ({ verdict, reason, status });

  // A cancelled or surrendered license is that, whatever its old expiry says.
  if (status.category === "not in force") return verdict("inactive", `Not in force: ${status.words}.`);
  const confirm = `Confirm with the ${decoding?.agency ?? "agency"}.`;
  if (expires !== null && expires < today) {
    // Valid through its expiry day: data of that day or later cannot know whether it was renewed.
    if (asOf === null || expires >= asOf) {
      const after = asOf === null ? "and our data’s date is not given" : `after our data of ${formatIsoDate(asOf)}`;
      return verdict("check", `Expires ${formatIsoDate(expires)}, ${after}: it may have been renewed. ${confirm}`);
    }
    const still = status.category === "in force" ? `still says ${said}` : `says ${said}`;
    return verdict("expired", `Expired on ${formatIsoDate(expires)}; the state’s record ${still}.`);
  }
  if (status.category === "pending") {
    if (asOf !== null && asOf < yearBefore(today)) {
      return verdict(
        "check",
        `An application (${status.words}) in our data of ${formatIsoDate(asOf)}, which is more than a year old: it may have been decided since. ${confirm}`,
      );
    }
    return verdict("pending", `Not yet licensed: ${status.words}.`);
  }
  if (status.category === "unknown") {
    // A record the state's table says is no license status (a tax filing): its words say whom to ask.
    if (statusInTable(decoding, license.status)) return verdict("check", sentence(status.words));
    return verdict(
      "check",
      license.status.trim()
        ? `The state’s status ${said} is not one we can decode: confirm it with the agency.`
        : "The state’s record gives no status: confirm it with the agency.",
    );
  }
  if (effective !== null && effective > today) {
    return verdict("check", `The record says ${said} but takes effect only on ${formatIsoDate(effective)}.`);
  }
  if (asOf !== null && asOf < yearBefore(today)) {
    return verdict(
      "check",
      `In force in our data of ${formatIsoDate(asOf)}, which is more than a year old: confirm it with the agency.`,
    );
  }
  const term = expires === null ? "the state publishes no expiry date" : `expires ${formatIsoDate(expires)}`;
  const age = asOf === null ? " The data’s date is not given: confirm it is current." : "";
  return verdict("valid", `In force (${status.words}); ${term}.${age}`);
}

/** The reason given with "not covered": the team's key reads none of the state's records. */
export function notCoveredReason(state: string): string {
  const name = stateName(state) ?? state.toUpperCase();
  return `${name} is not covered: License Lookup has no ${name} records for your team.`;
}

/**
 * The reason given with "not found": never a claim that the business is unlicensed. `covers` says what the
 * state's sources cover ("" when unknown), as the service's coverage names them.
 */
export function notFoundReason(state: string, covers = ""): string {
  const name = stateName(state) ?? state.toUpperCase();
  return `Not in our ${name} data${covers ? `, which covers ${covers}` : ""}. This does not mean the business is unlicensed.`;
}

/** Words as a sentence: its first letter a capital, a full stop at its end. */
function sentence(words: string): string {
  const text = words.trim();
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? "" : "."}`;
}

/** `2026-11-22` -> `2025-11-22`: data older than this is more than a year old. */
function yearBefore(today: string): string {
  return `${String(Number(today.slice(0, 4)) - 1).padStart(4, "0")}${today.slice(4)}`;
}
