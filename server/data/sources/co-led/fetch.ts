/**
 * Where a sync fetches Colorado's recently approved licenses: data.colorado.gov's "Recently Approved Liquor Licenses
 * in Colorado" (Socrata htyp-tqzh), the data set our real file is an export of, as
 * ../shared/research/fetch-sources.md section 10 ("Colorado LED") and section 1 (Socrata) document it: rowsUpdatedAt
 * (a monthly cadence is reported), pages ordered by :id, checked against count(*). Its field names are the column
 * names the adapter reads, ignoring case and punctuation. The statewide active list (ier5-5ms2) has a layout we hold
 * no file of and no adapter for.
 */
import type { FeedDefinition } from "../../sync/feed-definition.ts";

export const coRecentlyApproved: FeedDefinition = {
  feed: "co-led/recently-approved",
  adapter: "co-led",
  layout: "LED recently approved licenses",
  title: "Recently Approved Liquor Licenses in Colorado",
  source: { kind: "socrata", site: "https://data.colorado.gov", dataset: "htyp-tqzh", order: ":id", pageSize: 50_000 },
};
