import { formatIsoDate } from "../contract/calendar-date.ts";
import type { Provenance } from "../contract/envelopes.ts";
import type { GivenRow, LogEntry } from "../contract/checks.ts";
import type { License } from "../contract/license.ts";
import { entryOpening, givenWords } from "./entry-words.ts";

/**
 * The receipt in one paragraph, from the stored entry alone: "Checked by Maria Lopez (maria@example.com) on March 3,
 * 2027 at 10:02 EST: EXPIRED. Expired on December 31, 2016… Source: New York State Liquor Authority, nyc_bars.csv
 * (SHA-256 …), as of January 14, 2016." A Verify row says its line and what the clerk gave beside what the record
 * names: "…, line 11 of a Verify list. You gave NJ, 0707-33-003-007, White Horse; the state’s record names TAVERN
 * 292: CHECK. Number belongs to TAVERN 292, not White Horse…".
 */
export function receiptSentence(
  entry: LogEntry,
  provenance: Provenance | null,
  given: GivenRow | null = null,
  record: License | null = null,
): string {
  const opening = entryOpening(entry);
  if (entry.verdict === null) return entry.detail ? `${opening}: ${entry.detail}.` : `${opening}.`;
  const reason = entry.reason ? ` ${entry.reason}` : "";
  const verdict = `${entry.verdict.toUpperCase()}.${reason} ${sourceWords(entry, provenance)}`.trimEnd();
  if (!given) return `${opening}: ${verdict}`;
  const line = given.line === null ? "" : `, line ${given.line} of a Verify list`;
  return `${opening}${line}. ${givenWords(given, record)}: ${verdict}`;
}

function sourceWords(entry: LogEntry, provenance: Provenance | null): string {
  const source = provenance?.source;
  const sha = entry.source_sha256 ?? source?.sha256 ?? null;
  const asOf = entry.as_of ?? provenance?.as_of ?? null;
  if (!source && !sha && !asOf) {
    return entry.verdict === "not covered" || entry.verdict === "not found" || entry.record_json === null
      ? ""
      : "The service did not give the record’s source or date.";
  }
  const named = [source?.agency, source?.file ?? source?.title].filter(Boolean).join(", ") || "not named";
  const hash = sha ? ` (SHA-256 ${sha})` : "";
  const date = asOf ? `, as of ${formatIsoDate(asOf)}` : ", date not given";
  return `Source: ${named}${hash}${date}.`;
}
