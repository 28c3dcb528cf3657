import { datasetTables } from "../../store/dataset-tables.ts";
import type { Db } from "../../store/open-database.ts";
import { SourceFileError } from "../sources/source-adapter.ts";

/** An import refused for what its files would do to the state (recorded in `refusals`): nothing changed. */
export class ImportRefusedError extends SourceFileError {}

/** The share of a state's licenses an import may stop serving without --accept-shrink, in percent. */
export const DEFAULT_MAX_SHRINK = 10;

/** The licenses a state serves now that a new record set would stop serving. */
export interface Shrink {
  /** The licenses served now from real sources (demo data being replaced is no loss). */
  before: number;
  /** Those the new set leaves out, in license order. */
  lost: string[];
}

const EXAMPLES = 5;

/** What the state's live records hold that `next` does not; an empty state loses nothing. */
export function shrinkOf(db: Db, state: string, next: Iterable<string>): Shrink {
  const live = db.prepare(`SELECT id FROM datasets WHERE state = ? AND status = 'live'`).pluck().get(state) as
    number | undefined;
  if (live === undefined) return { before: 0, lost: [] };
  const served = db
    .prepare(
      `SELECT license FROM ${datasetTables(live).rows}
       WHERE source_id IS NULL OR source_id NOT IN (SELECT id FROM sources WHERE adapter = 'demo')
       ORDER BY license`,
    )
    .pluck()
    .all() as string[];
  const kept = new Set(next);
  return { before: served.length, lost: served.filter((license) => !kept.has(license)) };
}

/** Whether the shrink is past what an import may do unasked: `maxShrink` percent of the licenses served now. */
export function tooShrunk(shrink: Shrink, maxShrink: number): boolean {
  return shrink.lost.length > 0 && (shrink.lost.length / shrink.before) * 100 > maxShrink;
}

/** The refusal, for a person: how many would go, which, from which files, and how to accept it. */
export function shrinkReason(shrink: Shrink, state: string, files: readonly string[], maxShrink: number): string {
  const n = (x: number) => x.toLocaleString("en-US");
  const share = Math.round((shrink.lost.length / shrink.before) * 100);
  const examples = shrink.lost.slice(0, EXAMPLES).join(", ");
  return (
    `${files.join(", ")} would stop serving ${n(shrink.lost.length)} of the ${n(shrink.before)} licenses ` +
    `${state.toUpperCase()} serves now (${share}%, more than the ${maxShrink}% an import may drop unasked), ` +
    `such as ${examples}${shrink.lost.length > EXAMPLES ? ` and ${n(shrink.lost.length - EXAMPLES)} more` : ""}. A list that much shorter is more often a cut-off ` +
    `download than licenses gone, so nothing was changed and all ${n(shrink.before)} stay served. If the agency's list ` +
    `really is that much shorter, import it again with --accept-shrink.`
  );
}
