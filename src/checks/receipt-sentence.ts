import { formatIsoDate } from "../contract/calendar-date.ts";
import type { Provenance } from "../contract/envelopes.ts";
import type { LogEntry } from "../contract/checks.ts";
import { entryOpening } from "./entry-words.ts";

/**
 * The receipt in one paragraph, from the stored entry alone: "Checked by Maria Lopez (maria@example.com) on March 3,
 * 2027 at 10:02 EST: EXPIRED. Expired on December 31, 2016… Source: New York State Liquor Authority, nyc_bars.csv
 * (SHA-256 …), as of January 14, 2016."
 */
export function receiptSentence(entry: LogEntry, provenance: Provenance | null): string {
  const opening = entryOpening(entry);
  if (entry.verdict === null) return entry.detail ? `${opening}: ${entry.detail}.` : `${opening}.`;
  const reason = entry.reason ? ` ${entry.reason}` : "";
  return `${opening}: ${entry.verdict.toUpperCase()}.${reason} ${sourceWords(entry, provenance)}`;
}

function sourceWords(entry: LogEntry, provenance: Provenance | null): string {
  const source = provenance?.source;
  const sha = entry.source_sha256 ?? source?.sha256 ?? null;
  const asOf = entry.as_of ?? provenance?.as_of ?? null;
  if (!source && !sha && !asOf) {
    return entry.verdict === "not covered" || entry.verdict === "not found"
      ? ""
      : "The service did not give the record’s source or date.";
  }
  const named = [source?.agency, source?.file ?? source?.title].filter(Boolean).join(", ") || "not named";
  const hash = sha ? ` (SHA-256 ${sha})` : "";
  const date = asOf ? `, as of ${formatIsoDate(asOf)}` : ", date not given";
  return `Source: ${named}${hash}${date}.`;
}
