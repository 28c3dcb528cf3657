import { caDailyExport } from "../import/ca-abc/fetch.ts";
import { coRecentlyApproved } from "../import/co-led/fetch.ts";
import { dcLicenseLocations } from "../import/dc-abra/fetch.ts";
import { maActiveRetailLicenses } from "../import/ma-abcc/fetch.ts";
import { njRetailLicenseReport } from "../import/nj-abc/fetch.ts";
import { nyActiveLicenses } from "../import/ny-sla/fetch.ts";
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
