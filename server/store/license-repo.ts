import type { SearchQuery } from "../../src/contract/search-query.ts";
import { stateName } from "../../src/contract/states.ts";
import { consistentReads, mapUntilChange } from "./change-watch.ts";
import { datasetTables } from "./dataset-tables.ts";
import type { Db } from "./open-database.ts";
import { statementCache } from "./statement-cache.ts";
import { createRankedSearch, type RankedSearchOptions } from "./ranked-search.ts";
import { FIELDS_BY, searchTerms } from "./search-terms.ts";

export interface Coverage {
  state: string;
  name: string;
  records: number;
  as_of: string | null;
  source: string;
}

/**
 * Reads licenses from the live data set of each state. Returns the stored JSON text of each
 * license: it was validated against the contract when written, and is served as it is.
 */
export function createLicenseRepo(db: Db, searchOptions: RankedSearchOptions = {}) {
  const liveDataset = db.prepare(`SELECT id FROM datasets WHERE state = ? AND status = 'live'`).pluck();
  const coverage = db.prepare(
    `SELECT state, records, as_of, source FROM datasets WHERE status = 'live' ORDER BY state`,
  );
  const rankedSearch = createRankedSearch(db, searchOptions);
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

  // One read transaction per search: an import that flips a state live mid-search cannot drop the
  // tables under it.
  const search = consistentReads(db, (query: SearchQuery): string[] => {
    const id = liveDataset.get(query.state) as number | undefined;
    const terms = searchTerms(query.by, query.q);
    if (id === undefined || !terms) return [];
    const docById = prepared(`SELECT doc FROM ${datasetTables(id).rows} WHERE id = ?`).pluck();
    return rankedSearch(id, FIELDS_BY[query.by], terms).map((rowId) => docById.get(rowId) as string);
  });

  return {
    /** The stored JSON of the license with exactly this number, or null. */
    get: (state: string, license: string): string | null => get(state, license),
    /** The stored JSON of the best matches, at most MAX_RESULTS, best first. */
    search: (query: SearchQuery): string[] => search(query),
    /** States with live data. */
    coverage: (): Coverage[] =>
      (coverage.all() as Omit<Coverage, "name">[]).map(({ state, ...rest }) => ({
        state,
        name: stateName(state) ?? state,
        ...rest,
      })),
    /** Whether a state has live data. */
    has: (state: string): boolean => liveId(state) !== undefined,
  };
}

export type LicenseRepo = ReturnType<typeof createLicenseRepo>;
