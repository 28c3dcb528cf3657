import type { Statement } from "better-sqlite3";
import type { SearchQuery } from "../../src/contract/search-query.ts";
import { stateName } from "../../src/contract/states.ts";
import { datasetTables } from "./dataset-tables.ts";
import type { Db } from "./open-database.ts";
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
export function createLicenseRepo(db: Db, options: RankedSearchOptions = {}) {
  const liveDataset = db.prepare(`SELECT id FROM datasets WHERE state = ? AND status = 'live'`).pluck();
  const coverage = db.prepare(
    `SELECT state, records, as_of, source FROM datasets WHERE status = 'live' ORDER BY state`,
  );
  const rankedSearch = createRankedSearch(db, options);
  const statements = new Map<string, Statement<unknown[]>>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare<unknown[]>(sql);
      statements.set(sql, statement);
    }
    return statement;
  };

  // One read transaction per call: an import that flips a state live mid-call cannot drop the
  // tables under it.
  const get = db.transaction((state: string, license: string): string | null => {
    const id = liveDataset.get(state) as number | undefined;
    if (id === undefined) return null;
    const t = datasetTables(id);
    return (prepared(`SELECT doc FROM ${t.rows} WHERE license = ?`).pluck().get(license) as string | undefined) ?? null;
  });

  const search = db.transaction((query: SearchQuery): string[] => {
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
    has: (state: string): boolean => liveDataset.get(state) !== undefined,
  };
}

export type LicenseRepo = ReturnType<typeof createLicenseRepo>;
