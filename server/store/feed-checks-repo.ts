import { noteOwnWrite } from "./change-watch.ts";
import type { Db } from "./open-database.ts";
import { formatTimestamp } from "./timestamp.ts";

export type FeedOutcome = "unchanged" | "changed" | "refused" | "failed";

/**
 * What a sync compares the next time it asks a feed, so that it fetches only what changed: the answer's ETag and
 * Last-Modified, Socrata's rowsUpdatedAt, ArcGIS's newest edit, a file name found on an index page, the SHA-256 of
 * the last download. Each feed keeps the ones its agency really gives.
 */
export type FeedValidators = Record<string, string>;

/** One check of one feed: a sync asked the agency whether it published something new, and what came of it. */
export interface FeedCheck {
  /** The fetch definition asked, "<adapter>/<name>": "ny-sla/retail-licenses". */
  feed: string;
  state: string;
  adapter: string;
  /** The URL as the agency publishes it (before any --origin). */
  url: string;
  /**
   * unchanged: nothing new was published; changed: new data was fetched and imported; refused: a download came
   * but was not loaded (see the refusals table); failed: the agency could not be asked (no answer, an error status).
   */
  outcome: FeedOutcome;
  /** What the check found, in a sentence a person understands. */
  detail: string;
  /** Replaces the feed's validators when given (a refused or failed check keeps the last good ones). */
  validators?: FeedValidators;
}

export interface FeedCheckRow {
  feed: string;
  state: string;
  adapter: string;
  url: string;
  checked_at: string;
  outcome: FeedOutcome;
  detail: string;
  changed_at: string | null;
  validators: FeedValidators | null;
}

type StoredRow = Omit<FeedCheckRow, "validators"> & { validators: string | null };
const parsed = (row: StoredRow): FeedCheckRow => ({
  ...row,
  validators: row.validators === null ? null : (JSON.parse(row.validators) as FeedValidators),
});

/** The last check of each feed a sync asks: what `/v2/states` shows as each state's data health. */
export function createFeedChecksRepo(db: Db) {
  const upsert = db.prepare(`
    INSERT INTO feed_checks (feed, state, adapter, url, checked_at, outcome, detail, changed_at, validators)
    VALUES (@feed, @state, @adapter, @url, @at, @outcome, @detail, CASE WHEN @outcome = 'changed' THEN @at END, @validators)
    ON CONFLICT (feed) DO UPDATE SET
      state = excluded.state, adapter = excluded.adapter, url = excluded.url,
      checked_at = excluded.checked_at, outcome = excluded.outcome, detail = excluded.detail,
      changed_at = CASE WHEN excluded.outcome = 'changed' THEN excluded.checked_at ELSE feed_checks.changed_at END,
      validators = coalesce(excluded.validators, feed_checks.validators)
  `);
  const one = db.prepare(`SELECT * FROM feed_checks WHERE feed = ?`);
  const all = db.prepare(`SELECT * FROM feed_checks ORDER BY state, feed`);
  return {
    record(check: FeedCheck, at = new Date()): void {
      upsert.run({
        ...check,
        at: formatTimestamp(at),
        validators: check.validators === undefined ? null : JSON.stringify(check.validators),
      });
      noteOwnWrite(db);
    },
    get: (feed: string): FeedCheckRow | undefined => {
      const row = one.get(feed) as StoredRow | undefined;
      return row && parsed(row);
    },
    /** Every feed's last check, by state then feed. */
    list: (): FeedCheckRow[] => (all.all() as StoredRow[]).map(parsed),
  };
}
