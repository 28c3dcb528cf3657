import {
  MAX_RESULTS,
  type FeedHealth,
  type LicenseHistory,
  type Provenance,
  type Refusal,
  type Source,
  type StateCoverage,
} from "../../src/contract/envelopes.ts";
import type { SearchQuery } from "../../src/contract/search-query.ts";
import { stateName } from "../../src/contract/states.ts";
import { consistentReads, mapUntilChange } from "./change-watch.ts";
import { datasetTables } from "./dataset-tables.ts";
import { listedOnce, type StoredFieldSource, type StoredHistory } from "./license-record.ts";
import type { Db } from "./open-database.ts";
import { statementCache } from "./statement-cache.ts";
import { createCloseMatch } from "./close-match.ts";
import { createRankedSearch, type RankedSearchOptions } from "./ranked-search.ts";
import { INSIDE_A_WORD } from "./search-ranking.ts";
import { FIELDS_BY, searchTerms } from "./search-terms.ts";
import { createFeedChecksRepo, type FeedCheckRow } from "./feed-checks-repo.ts";
import { createSourcesRepo } from "./sources-repo.ts";

/**
 * Reads licenses from the live data set of each state. Returns the stored JSON text of each
 * license: it was validated against the contract when written, and is served as it is.
 */
export function createLicenseRepo(db: Db, searchOptions: RankedSearchOptions = {}) {
  const liveDataset = db.prepare(`SELECT id FROM datasets WHERE state = ? AND status = 'live'`).pluck();
  const liveSets = db.prepare(`SELECT id, state, records FROM datasets WHERE status = 'live' ORDER BY state`);
  const sourcesRepo = createSourcesRepo(db);
  const rankedSearch = createRankedSearch(db, searchOptions);
  const closeTerms = createCloseMatch(db);
  const prepared = statementCache(db);

  // Each state's live data set, remembered until the database changes (an import flips one live).
  const live = mapUntilChange<string, number | undefined>(db);
  const liveId = (state: string): number | undefined => {
    const ids = live.current();
    if (!ids.has(state)) ids.set(state, liveDataset.get(state) as number | undefined);
    return ids.get(state);
  };

  const get = (state: string, license: string): string | null => {
    for (let attempt = 0; ; attempt++) {
      const id = liveId(state);
      if (id === undefined) return null;
      try {
        const doc = prepared(`SELECT doc FROM ${datasetTables(id).rows} WHERE license = ?`)
          .pluck()
          .get(license);
        return (doc as string | undefined) ?? null;
      } catch (error) {
        // An import flipped the state live and dropped these tables between the two reads: once more.
        if (attempt > 0 || !/no such table/.test(String(error))) throw error;
        live.clear();
      }
    }
  };

  // The rows of the best matches, best first, in the state's live data set; read inside the caller's transaction.
  const matches = (query: SearchQuery): { id: number; rows: number[] } | null => {
    const id = liveDataset.get(query.state) as number | undefined;
    const terms = searchTerms(query.by, query.q);
    if (id === undefined || !terms) return null;
    const fields = FIELDS_BY[query.by];
    let found = rankedSearch(id, fields, terms);
    let best = found.tier;
    // Too little as typed (no match, or a word only inside others): a word may be a typo of
    // another. What each widening finds comes after what was found before it.
    const enough = () => found.rows.length >= MAX_RESULTS || (best !== null && best < INSIDE_A_WORD);
    if (!enough()) {
      for (const close of closeTerms(id, fields, terms)) {
        found = rankedSearch(id, fields, close, found.rows);
        if (found.tier !== null && (best === null || found.tier < best)) best = found.tier;
        if (enough()) break;
      }
    }
    return { id, rows: found.rows };
  };

  // One read transaction per search: an import that flips a state live mid-search cannot drop the
  // tables under it.
  const search = consistentReads(db, (query: SearchQuery): string[] => {
    const found = matches(query);
    if (!found) return [];
    const docById = prepared(`SELECT doc FROM ${datasetTables(found.id).rows} WHERE id = ?`).pluck();
    return found.rows.map((rowId) => docById.get(rowId) as string);
  });

  const searchWithProvenance = consistentReads(db, (query: SearchQuery): SearchWithProvenance => {
    const found = matches(query);
    if (!found) return { docs: [], provenance: [] };
    const rowById = prepared(`SELECT doc, ${SOURCED_COLUMNS} FROM ${datasetTables(found.id).rows} WHERE id = ?`);
    const sources = sourcesById(query.state);
    const rows = found.rows.map((rowId) => rowById.get(rowId) as SourcedRow & { doc: string });
    return { docs: rows.map((row) => row.doc), provenance: rows.map((row) => sourced(query.state, row, sources)) };
  });

  // The states and their sources, with how many live records each source backs: read once per database change.
  const feedChecks = createFeedChecksRepo(db);
  const lastRefusal = db.prepare(
    `SELECT refused_at, file, sha256, reason FROM refusals WHERE state = ? ORDER BY refused_at DESC, id DESC LIMIT 1`,
  );
  const coverageCache = mapUntilChange<"all", StateCoverage[]>(db);
  const coverage = consistentReads(db, (): StateCoverage[] => {
    const cached = coverageCache.current();
    const known = cached.get("all");
    if (known) return known;
    const sources = sourcesRepo.list();
    const feeds = new Map<string, FeedCheckRow[]>();
    for (const f of feedChecks.list()) feeds.set(f.state, [...(feeds.get(f.state) ?? []), f]);
    const states = (liveSets.all() as { id: number; state: string; records: number }[]).map(
      ({ id, state, records }) => {
        const backed = new Map(
          (
            prepared(
              `SELECT source_id AS id, count(*) AS n FROM ${datasetTables(id).rows} GROUP BY source_id`,
            ).all() as {
              id: number | null;
              n: number;
            }[]
          ).map((r) => [r.id, r.n]),
        );
        return {
          state,
          name: stateName(state) ?? state,
          records,
          sources: sources
            .filter((s) => s.state === state)
            .map((s): Source => ({
              id: s.id,
              agency: s.agency,
              title: s.title,
              coverage: s.coverage,
              file: s.file,
              sha256: s.sha256,
              as_of: s.as_of,
              as_of_from: s.as_of_from,
              loaded_at: s.loaded_at,
              records: backed.get(s.id) ?? 0,
            })),
          feeds: (feeds.get(state) ?? []).map((f): FeedHealth => ({
            feed: f.feed,
            url: f.url,
            checked_at: f.checked_at,
            outcome: f.outcome,
            detail: f.detail,
            changed_at: f.changed_at,
          })),
          last_refusal: (lastRefusal.get(state) as Refusal | undefined) ?? null,
        };
      },
    );
    cached.set("all", states);
    return states;
  });

  const provenance = consistentReads(db, (state: string, license: string): Provenance | null => {
    const id = liveId(state);
    if (id === undefined) return null;
    const row = prepared(`SELECT ${SOURCED_COLUMNS} FROM ${datasetTables(id).rows} WHERE license = ?`).get(license) as
      SourcedRow | undefined;
    return sourced(state, row, sourcesById(state));
  });

  const history = consistentReads(db, (state: string, license: string): LicenseHistory | null => {
    const id = liveId(state);
    if (id === undefined) return null;
    const tables = datasetTables(id);
    const doc = prepared(`SELECT doc FROM ${tables.history} WHERE license = ?`).pluck().get(license) as
      string | undefined;
    let stored: StoredHistory;
    if (doc !== undefined) stored = JSON.parse(doc) as StoredHistory;
    else {
      const row = prepared(`SELECT source_id, as_of FROM ${tables.rows} WHERE license = ?`).get(license) as
        { source_id: number | null; as_of: string | null } | undefined;
      if (row?.source_id == null) return null;
      stored = listedOnce(row.source_id, row.as_of);
    }
    const { entries, listings } = stored;
    const named = new Set([
      ...entries.map((e) => e.source),
      ...listings.flatMap((l) => [l.first_source, l.last_source]),
    ]);
    const sources =
      coverage()
        .find((c) => c.state === state)
        ?.sources.filter((s) => named.has(s.id)) ?? [];
    return { state, license, entries, listings, sources };
  });

  // The list routes read the live data set inside their read, not from the cache: an import that
  // flips the state live cannot drop the tables between the two.
  const getMany = consistentReads(db, (state: string, numbers: readonly string[]): (string | null)[] => {
    const id = liveDataset.get(state) as number | undefined;
    if (id === undefined) return numbers.map(() => null);
    const docByNumber = prepared(`SELECT doc FROM ${datasetTables(id).rows} WHERE license = ?`).pluck();
    return numbers.map((license) => (docByNumber.get(license) as string | undefined) ?? null);
  });

  const provenanceMany = consistentReads(db, (state: string, numbers: readonly string[]): (Provenance | null)[] => {
    const id = liveDataset.get(state) as number | undefined;
    if (id === undefined) return numbers.map(() => null);
    const rowByNumber = prepared(`SELECT ${SOURCED_COLUMNS} FROM ${datasetTables(id).rows} WHERE license = ?`);
    const sources = sourcesById(state);
    return numbers.map((license) => sourced(state, rowByNumber.get(license) as SourcedRow | undefined, sources));
  });

  /** A state's sources by id, as /v2/states lists them. */
  const sourcesById = (state: string) =>
    new Map(
      coverage()
        .find((c) => c.state === state)
        ?.sources.map((s) => [s.id, s]),
    );

  return {
    /** The stored JSON of the license with exactly this number, or null. */
    get: (state: string, license: string): string | null => get(state, license),
    /** The stored JSON of the best matches, at most MAX_RESULTS, best first. */
    search: (query: SearchQuery): string[] => search(query),
    /** The same search, with each match's provenance (null where there is none). Read at once. */
    searchWithProvenance: (query: SearchQuery): SearchWithProvenance => searchWithProvenance(query),
    /** States with live data, and the sources behind each. */
    coverage: (): StateCoverage[] => coverage(),
    /** Where the license with exactly this number comes from, or null when there is none. */
    provenance: (state: string, license: string): Provenance | null => provenance(state, license),
    /** The stored JSON of each number's license, in the order given; null where there is none. Read at once. */
    getMany: (state: string, numbers: readonly string[]): (string | null)[] => getMany(state, numbers),
    /** Each number's provenance, in the order given; null where there is none. Read at once. */
    provenanceMany: (state: string, numbers: readonly string[]): (Provenance | null)[] =>
      provenanceMany(state, numbers),
    /** What the state's sources have said of the license over time, or null when none ever named it. */
    history: (state: string, license: string): LicenseHistory | null => history(state, license),
    /** Whether a state has live data. */
    has: (state: string): boolean => liveId(state) !== undefined,
  };
}

export type LicenseRepo = ReturnType<typeof createLicenseRepo>;

/** A search's matches as stored JSON, best first, and where each comes from. */
export interface SearchWithProvenance {
  docs: string[];
  provenance: (Provenance | null)[];
}

/** What a row says of where it comes from: the columns of SourcedRow. */
const SOURCED_COLUMNS = "license, source_id, as_of, fields";

/** What a row says of where it comes from. */
interface SourcedRow {
  license: string;
  source_id: number | null;
  as_of: string | null;
  /** JSON of StoredFieldSource[]: each field an older source gives; null when none does. */
  fields: string | null;
}

/**
 * A row's provenance: null where there is no row, or it was written without a source (the benchmark's).
 * `fields` only where an older source gives one: an answer for a record that is one source's word stays as it was.
 */
function sourced(state: string, row: SourcedRow | undefined, sources: Map<number, Source>): Provenance | null {
  const source = row?.source_id == null ? undefined : sources.get(row.source_id);
  if (!row || !source) return null;
  const provenance: Provenance = { state, license: row.license, as_of: row.as_of, source };
  const fields = row.fields === null ? [] : (JSON.parse(row.fields) as StoredFieldSource[]);
  const named = fields.flatMap((f) => {
    const from = sources.get(f.source);
    return from ? [{ field: f.field, as_of: f.as_of, source: from }] : [];
  });
  return named.length > 0 ? { ...provenance, fields: named } : provenance;
}
