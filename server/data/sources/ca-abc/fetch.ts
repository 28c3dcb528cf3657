/**
 * Where a sync fetches California's licenses: the ABC's "Daily Data Export", DailyExport-CSV.zip, as
 * ../shared/research/fetch-sources.md section 6 ("California ABC") documents it: a static upload whose server sends
 * Last-Modified and ETag, so it is asked conditionally (304: unchanged); the zip must open whole and hold
 * ABC-DailyDataExport.csv, which the `ca-abc-export` adapter reads. The HTML daily reports behind Cloudflare are not
 * used (the section's recommendation).
 */
import type { FeedDefinition } from "../../sync/feed-definition.ts";

export const caDailyExport: FeedDefinition = {
  feed: "ca-abc/daily-export",
  adapter: "ca-abc-export",
  layout: "ABC daily data export",
  title: "ABC Daily Data Export",
  source: {
    kind: "file",
    url: "https://www.abc.ca.gov/wp-content/uploads/DailyExport-CSV.zip",
    member: "ABC-DailyDataExport.csv",
  },
};
