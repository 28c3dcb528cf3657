import type { Provenance } from "../contract/envelopes.ts";
import { formatIsoDate } from "../contract/calendar-date.ts";
import { recordAsOf } from "../contract/record-source.ts";

/** "New York State Liquor Authority, data as of January 14, 2016": who says so, and as of when. */
export function sourceLine(provenance: Provenance | null): string {
  if (!provenance) return "The service does not give this record’s source or date.";
  const asOf = recordAsOf(provenance);
  return `${provenance.source.agency}, data as of ${asOf ? formatIsoDate(asOf) : "a date not given"}`;
}
