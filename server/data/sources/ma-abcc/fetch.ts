/**
 * Where a sync fetches Massachusetts's retail licenses: the ABCC's "Active Retail Licenses" download, a legacy .xls,
 * as ../shared/research/fetch-sources.md section 4 ("Massachusetts ABCC") documents it. No cadence is published and
 * mass.gov keeps no validators one can count on: the file's landing page (the URL without /download) shows a "Last
 * updated" date, asked first; when it moved, or the page gives none, the file is fetched and compared by its
 * SHA-256. The adapter reads the .xls as its one layout (our real copy is that .xls saved as CSV).
 */
import type { FeedDefinition } from "../../sync/feed-definition.ts";

const LANDING = "https://www.mass.gov/doc/abcc-active-retail-licenses";

export const maActiveRetailLicenses: FeedDefinition = {
  feed: "ma-abcc/active-retail-licenses",
  adapter: "ma-abcc",
  layout: "ABCC active retail licenses",
  title: "ABCC Active Retail Licenses",
  source: {
    kind: "file",
    url: `${LANDING}/download`,
    name: "abcc-active-retail-licenses.xls",
    // <th scope="row">Last updated</th><td><span class="ma__listing-table__data-item">April 20, 2026</span>
    datedBy: { url: LANDING, date: /Last updated[\s\S]{0,300}?ma__listing-table__data-item[^>]*>\s*([^<]+?)\s*</i },
  },
};
