import type { Provenance, Source, StateCoverage } from "./envelopes.ts";
import { formatIsoDate } from "./calendar-date.ts";

/** The date a verdict ages the record by: the record's own, else its source's. */
export function recordAsOf(provenance: Provenance | null): string | null {
  return provenance ? (provenance.as_of ?? provenance.source.as_of) : null;
}

/** The sources behind a state's records today: a source whose every record a newer one replaced covers nothing. */
export function liveSources(coverage: StateCoverage | null | undefined): Source[] {
  return (coverage?.sources ?? []).filter((s) => s.records > 0);
}

/** Newest first; a source that gives no date last. */
export function newestFirst(sources: readonly Source[]): Source[] {
  return [...sources].sort((a, b) => (b.as_of ?? "").localeCompare(a.as_of ?? "") || b.id - a.id);
}

/** "New York City on-premises liquor licenses only (…), as of January 14, 2016" */
export function sourceCovers(source: Source): string {
  return `${source.coverage}${source.as_of ? `, as of ${formatIsoDate(source.as_of)}` : ""}`;
}

/** What the sources behind a state's records cover today, newest first: "" when the service does not say. */
export function sourcesCover(coverage: StateCoverage | null | undefined): string {
  return newestFirst(liveSources(coverage)).map(sourceCovers).join("; ");
}
