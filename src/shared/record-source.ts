import type { Provenance } from "../contract/envelopes.ts";
import { formatIsoDate } from "../contract/calendar-date.ts";

// The words of a record's source are the contract's (the app's server writes them into the record of checks too);
// named here as well for the pages that read them from here.
export { liveSources, newestFirst, recordAsOf, sourceCovers, sourcesCover } from "../contract/record-source.ts";

/** "New York State Liquor Authority, data as of January 14, 2016": who says so, and as of when. */
export function sourceLine(provenance: Provenance | null): string {
  if (!provenance) return "The service does not give this record’s source or date.";
  const asOf = provenance.as_of ?? provenance.source.as_of;
  return `${provenance.source.agency}, data as of ${asOf ? formatIsoDate(asOf) : "a date not given"}`;
}
