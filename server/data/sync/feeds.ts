import { caDailyExport } from "../sources/ca-abc/fetch.ts";
import { coRecentlyApproved } from "../sources/co-led/fetch.ts";
import { dcLicenseLocations } from "../sources/dc-abra/fetch.ts";
import { maActiveRetailLicenses } from "../sources/ma-abcc/fetch.ts";
import { njRetailLicenseReport } from "../sources/nj-abc/fetch.ts";
import { nyActiveLicenses } from "../sources/ny-sla/fetch.ts";
import type { FeedDefinition } from "./feed-definition.ts";

/**
 * Every feed `npm run sync` asks: the agencies fetch-sources.md documents an endpoint of whose layout we have an
 * adapter. Not here: Washington's, Texas's, Pennsylvania's, Kentucky's and Michigan's published lists, which come in
 * layouts our adapters for those states' files do not read.
 */
export const FEEDS: readonly FeedDefinition[] = [
  nyActiveLicenses,
  njRetailLicenseReport,
  maActiveRetailLicenses,
  caDailyExport,
  dcLicenseLocations,
  coRecentlyApproved,
];
