/**
 * Where a sync fetches New Jersey's retail licenses: the monthly "Retail License Report" linked from the ABC's
 * licensing reports page, as ../shared/research/fetch-sources.md section 5 ("New Jersey ABC") documents it. Its name
 * changes each month (…/wp-content/uploads/2026/04/RETAIL-LICENSE-REPORT-APRIL-2026.xlsx): the newest (year, month)
 * among the page's links is the file, and a link not fetched before is what says a new report is out. The adapter
 * reads it as its "report" layout (the title block, then the header row starting License Number).
 */
import type { FeedDefinition } from "../../sync/feed-definition.ts";

export const njRetailLicenseReport: FeedDefinition = {
  feed: "nj-abc/retail-license-report",
  adapter: "nj-abc",
  layout: "ABC retail license report",
  title: "Retail License Report",
  source: {
    kind: "linked-file",
    page: "https://www.njoag.gov/about/divisions-and-offices/division-of-alcoholic-beverage-control-home/licensing-bureau-applications-and-information/licensing-reports/",
    link: /href="([^"]*\/(\d{4})\/(\d{2})\/RETAIL-LICENSE-REPORT[^"]*\.xlsx)"/i,
    edition: (match) => `${match[2]}-${match[3]}`,
  },
};
