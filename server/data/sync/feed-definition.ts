import type { FeedValidators } from "../../store/feed-checks-repo.ts";
import type { DownloadOptions } from "./http-client.ts";

/**
 * A Socrata dataset (fetch-sources.md section 1): `rowsUpdatedAt` of `/api/views/<id>.json` says when its rows last
 * changed; its rows are read in pages of `/resource/<id>.csv` in a stable `$order`, and their number is checked
 * against the count the API reports (an unordered or cut load silently drops rows).
 */
export interface SocrataSource {
  kind: "socrata";
  /** Scheme and host: `https://data.ny.gov`. */
  site: string;
  dataset: string;
  /** A column that orders the rows one way every time: the license number, else `:id`. */
  order: string;
  /** Rows a page; 50,000 is SODA 2.0's most. */
  pageSize: number;
}

/**
 * An ArcGIS feature layer (section 2): the layer's `editingInfo.lastEditDate`, else the newest value of its edit
 * field, says when it last changed; features come in pages ordered by `order`, checked against `returnCountOnly`.
 */
export interface ArcgisSource {
  kind: "arcgis";
  /** The layer's URL: `https://…/FeatureServer/5`. */
  layer: string;
  order: string;
  pageSize: number;
  /** The field editor tracking writes, whose newest value dates the layer when its JSON gives no lastEditDate. */
  editField: string;
  /** The name the features are kept and imported under, as CSV. */
  name: string;
}

/**
 * One file at a fixed URL. It is asked with the validators it last answered (ETag, Last-Modified: a 304 is
 * "unchanged"); a file whose server keeps none is compared by its SHA-256. `datedBy`: a page whose date says
 * cheaply whether the file changed (mass.gov's "Last updated"), asked first.
 */
export interface FileSource {
  kind: "file";
  url: string;
  /** The name the file is kept and imported under, where the URL's last part says nothing (`…/download`). */
  name?: string;
  datedBy?: { url: string; date: RegExp };
  /** The member of a zip the import reads: the zip is kept as fetched, the member imported. */
  member?: string;
}

/**
 * A file whose name changes with each edition (NJ's monthly report): the newest link on an index page that
 * matches `link` is the file, and a link not seen before is what says something new was published.
 */
export interface LinkedFileSource {
  kind: "linked-file";
  page: string;
  /** Matches the file's link in the page; its groups make `edition`. */
  link: RegExp;
  /** A key that sorts the editions, the newest last (`2026-04`). */
  edition: (match: RegExpMatchArray) => string;
}

export type FeedSource = SocrataSource | ArcgisSource | FileSource | LinkedFileSource;

/** An agency feed a sync asks: where, how it pages, what says it changed, which adapter reads what it gives. */
export interface FeedDefinition {
  /** `<adapter>/<name>`, as feed checks are kept: "ny-sla/active-licenses". */
  feed: string;
  /** The `npm run import -- --source` adapter that reads the fetched file. */
  adapter: string;
  /** The adapter's layout the file is expected in (its name), for people reading the definition and the README. */
  layout: string;
  /** The agency's name for the data set. */
  title: string;
  source: FeedSource;
}

/** What a sync's fetch of one feed is given. */
export interface FetchContext {
  /** Replaces the scheme and host of every agency URL (withOrigin). */
  origin?: string;
  /** A folder of the sync's own, removed after it. */
  dir: string;
  /** What the feed's last good check kept. */
  previous: FeedValidators;
  /** The HTTP client's limits and identity. */
  client: Pick<
    DownloadOptions,
    "userAgent" | "idleTimeoutMs" | "totalTimeoutMs" | "attempts" | "backoffMs" | "maxWaitMs"
  >;
  /** The most a zip member may inflate to (default DEFAULT_MAX_MEMBER_BYTES). */
  maxMemberBytes?: number;
}

export type Fetched =
  | { kind: "unchanged"; detail: string; validators: FeedValidators }
  | {
      kind: "fetched";
      /** The download as fetched (the pages put together, for a paged API): kept in the archive. */
      file: string;
      sha256: string;
      /** What the import reads: `file`, or the zip member it holds. */
      importFile: string;
      /** The agency URL it came from (before --origin). */
      url: string;
      validators: FeedValidators;
      /** What says it is new, in words: "its rows were updated 2026-11-20 08:00 UTC". */
      detail: string;
      /** The day the agency says the data was current, for a file that states none (Socrata's rowsUpdatedAt). */
      asOf?: string;
    };
