import { formatIsoDate } from "./calendar-date.ts";
import type { Provenance } from "./envelopes.ts";
import { licenseDates, type License } from "./license.ts";
import { recordAsOf } from "./record-source.ts";
import type { RowContext, RowRead, RowVerdict } from "./row-verdict.ts";
import { stateName } from "./states.ts";
import { licenseVerdict, notCoveredReason, notFoundReason, type Verdict } from "./verdict.ts";
import type { WatchEntry } from "./watchlist.ts";

// The parts of rowVerdict that need no name matching, apart from it: a watched license shows its verdict from these
// alone, and the watchlist's first page does not load what only a Verify row needs.

/**
 * What a watched license shows, from what its last check learnt: `rowVerdict` of its number with no name given,
 * decided by the same pieces, without the name matching a watched license never needs (the watchlist's first page
 * stays within its JavaScript budget).
 */
export function watchedVerdict(entry: WatchEntry, context: RowContext): RowVerdict {
  const read = watchedRead(entry);
  if (read.kind !== "number") return held(entry.state, read, context);
  return read.record
    ? judged(read.record, read.provenance, context)
    : none("not found", notFoundReason(entry.state, context.covers));
}

/** What a watched license's last check can have learnt. */
export type WatchedRead = Extract<RowRead, { kind: "number" | "not covered" | "gone" | "unchecked" }>;

/** A read that says no more than that the state is not covered, the license is gone, or it is not answered yet. */
export function held(
  state: string,
  read: Exclude<WatchedRead, { kind: "number" }>,
  { covers }: RowContext,
): RowVerdict {
  switch (read.kind) {
    case "not covered":
      return none("not covered", notCoveredReason(state));
    case "gone": {
      const seen = read.last ? ` (last seen as ${lastSeenWords(read.last)})` : "";
      const said = covers ? ` Our ${stateName(state) ?? state.toUpperCase()} data covers ${covers}.` : "";
      return {
        ...none("not found", `No longer listed: the service no longer returns this license${seen}.${said}`),
        record: read.last,
        provenance: read.last && read.provenance,
      };
    }
    case "unchecked":
      return none("check", "Not checked yet.");
  }
}

export function none(verdict: Verdict["verdict"], reason: string, offered: string[] = []): RowVerdict {
  return { verdict, reason, record: null, provenance: null, offered };
}

export function judged(record: License, provenance: Provenance | null, { today, decoding }: RowContext): RowVerdict {
  const { verdict, reason } = licenseVerdict(record, { today, asOf: recordAsOf(provenance), decoding });
  return { verdict, reason, record, provenance, offered: [] };
}

/** What the watchlist holds of a watched license, as a read: what its last check learnt. */
export function watchedRead(entry: WatchEntry): WatchedRead {
  const { outcome, record, provenance } = entry;
  if (outcome === "not covered") return { kind: "not covered" };
  if (outcome === "no longer listed") return { kind: "gone", last: record, provenance };
  if (outcome === "unchecked" || !record) return { kind: "unchecked" };
  return { kind: "number", record, provenance, near: [] };
}

/** "ACME TAVERN, status active, expiring March 31, 2026": what a record said, for one that is no longer listed. */
export function lastSeenWords(record: License): string {
  const expires = licenseDates(record).expires;
  return [
    record.business || record.owner || "no name given",
    record.status.trim() ? `status ${record.status.trim()}` : "",
    expires ? `expiring ${formatIsoDate(expires)}` : "",
  ]
    .filter(Boolean)
    .join(", ");
}
