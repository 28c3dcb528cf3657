import type { Provenance } from "../contract/envelopes.ts";
import { formatIsoDate } from "../contract/calendar-date.ts";

/** "New York State Liquor Authority, data as of January 14, 2016": who says so, and as of when. */
export function sourceLine(provenance: Provenance | null): string {
  if (!provenance) return "The service does not give this record’s source or date.";
  const asOf = provenance.as_of ?? provenance.source.as_of;
  return `${provenance.source.agency}, data as of ${asOf ? formatIsoDate(asOf) : "a date not given"}`;
}
