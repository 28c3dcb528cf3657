import type { DecodingTable } from "../contract/decoding/decoding-table.ts";
import { licenseDates } from "../contract/license.ts";
import type { StateCoverage } from "../contract/envelopes.ts";
import type { WatchEntry } from "../contract/watchlist.ts";
import { daysUntil } from "../shared/dates.ts";
import { absoluteLicenseUrl } from "../shared/page-urls.ts";
import { recordAsOf, sourcesCover } from "../contract/record-source.ts";
import { watchedVerdict } from "../contract/watched-verdict.ts";
import type { VerdictWord } from "../contract/verdict.ts";
import type { CsvRecord } from "../shared/verdict-csv.ts";

/** One watched license as the table shows it and the CSV writes it: its verdict as watchedVerdict decides, and the record keeps. */
export interface WatchRow {
  entry: WatchEntry;
  verdict: VerdictWord;
  reason: string;
  status: string;
  business: string;
  owner: string;
  /** The record's expiry, `YYYY-MM-DD`; null when it gives none (or there is no record). */
  expires: string | null;
  /** The agency, and the date its data was true on; "" when not given. */
  source: string;
  asOf: string;
}

/** The expiry windows a clerk can filter by, in days. */
export const EXPIRING_DAYS = [30, 60, 90] as const;
export type ExpiringDays = (typeof EXPIRING_DAYS)[number];

/** `coverage`: what the service says backs the license's state today; null or missing when it does not say. */
export function watchRow(
  entry: WatchEntry,
  today: string,
  decoding: DecodingTable | null,
  coverage?: StateCoverage | null,
): WatchRow {
  const { record, provenance } = entry;
  const { verdict, reason } = watchedVerdict(entry, {
    today,
    decoding,
    covers: sourcesCover(coverage),
  });
  return {
    entry,
    verdict,
    reason,
    status: record?.status ?? "",
    business: record?.business ?? "",
    owner: record?.owner ?? "",
    expires: record ? licenseDates(record).expires : null,
    source: provenance?.source.agency ?? "",
    asOf: recordAsOf(provenance) ?? "",
  };
}

/** Changed ones first, then the soonest expiry (the longest expired first, none given last), then by state and number. */
export function sortRows(rows: readonly WatchRow[]): WatchRow[] {
  const key = (r: WatchRow) => `${r.entry.state} ${r.entry.license}`;
  return [...rows].sort(
    (a, b) =>
      Number(b.entry.unseen > 0) - Number(a.entry.unseen > 0) ||
      (a.expires ?? "9999").localeCompare(b.expires ?? "9999") ||
      key(a).localeCompare(key(b)),
  );
}

/** Its record expires today or later, and at most `days` days from today; an expired one is not expiring. */
export function isExpiring(row: WatchRow, days: number, today: string): boolean {
  if (row.expires === null) return false;
  const left = daysUntil(row.expires, today);
  return left >= 0 && left <= days;
}

/** `?expiring=30`: the window the URL asks for; null for all (and for anything else). */
export function readExpiring(params: URLSearchParams): ExpiringDays | null {
  const days = Number(params.get("expiring"));
  return EXPIRING_DAYS.find((d) => d === days) ?? null;
}

/** The rows in the list check's CSV columns: the position in the export as the row, the link to each license's page. */
export function csvRecords(rows: readonly WatchRow[]): CsvRecord[] {
  return rows.map((r, i) => ({
    row: String(i + 1),
    state: r.entry.state.toUpperCase(),
    license: r.entry.license,
    matched_license: r.entry.record?.license ?? "",
    verdict: r.verdict,
    reason: r.reason,
    status: r.status,
    business: r.business,
    owner: r.owner,
    expires: r.expires ?? "",
    source: r.source,
    as_of: r.asOf,
    checked_at: r.entry.checked_at ?? "",
    link: absoluteLicenseUrl(r.entry.state, r.entry.license),
  }));
}
