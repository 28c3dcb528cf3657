/**
 * Where a sync fetches New York's active licenses: data.ny.gov's "Current Liquor Authority Active Licenses"
 * (Socrata 9s3h-dpkz, about 60,000 rows), as ../shared/research/fetch-sources.md section 3 ("New York SLA") and
 * section 1 ("Cross-cutting: Socrata SODA") document it: rowsUpdatedAt of /api/views/9s3h-dpkz.json says when its
 * rows changed; pages of /resource/9s3h-dpkz.csv ordered by licensepermitid (an unordered load duplicated and
 * dropped rows), checked against count(*). The adapter reads it as its "current active list" layout.
 */
import type { FeedDefinition } from "../../sync/feed-definition.ts";

export const nyActiveLicenses: FeedDefinition = {
  feed: "ny-sla/active-licenses",
  adapter: "ny-sla",
  layout: "SLA current active licenses (data.ny.gov 9s3h-dpkz)",
  title: "Current Liquor Authority Active Licenses",
  source: {
    kind: "socrata",
    site: "https://data.ny.gov",
    dataset: "9s3h-dpkz",
    order: "licensepermitid",
    pageSize: 50_000,
  },
};
