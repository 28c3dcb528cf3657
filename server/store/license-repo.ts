import type { Statement } from "better-sqlite3";
import { MAX_RESULTS } from "../../src/contract/envelopes.ts";
import type { SearchQuery } from "../../src/contract/search-query.ts";
import { stateName } from "../../src/contract/states.ts";
import { datasetTables } from "./dataset-tables.ts";
import { normalizeText, words } from "./normalize.ts";
import type { Db } from "./open-database.ts";
import { compareRanked, matchTier, type Ranked } from "./search-ranking.ts";

export interface Coverage {
  state: string;
  name: string;
  records: number;
  as_of: string | null;
  source: string;
}

interface Candidate {
  license: string;
  doc: string;
  status: string;
  business_key: string;
  owner_key: string;
  address_key: string;
}

/** Trigrams need three characters; shorter words are checked on the candidates only. */
const MIN_INDEXED_WORD = 3;

/**
 * Reads licenses from the live data set of each state. Returns the stored JSON text of each
 * license: it was validated against the contract when written, and is served as it is.
 */
export function createLicenseRepo(db: Db) {
  const liveDataset = db.prepare(`SELECT id FROM datasets WHERE state = ? AND status = 'live'`).pluck();
  const coverage = db.prepare(
    `SELECT state, records, as_of, source FROM datasets WHERE status = 'live' ORDER BY state`,
  );
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
    if (id === undefined) return [];
    const normalized = normalizeText(query.q);
    const queryWords = words(normalized);
    if (queryWords.length === 0) return [];
    const fields = query.by === "name" ? (["business_key", "owner_key"] as const) : (["address_key"] as const);
    const candidates = findCandidates(id, fields, queryWords);

    const ranked: (Ranked & { doc: string })[] = [];
    for (const c of candidates) {
      let best: (Ranked & { doc: string }) | null = null;
      fields.forEach((field, fieldIndex) => {
        const tier = matchTier(c[field], normalized);
        if (tier === null) return;
        const r = {
          tier,
          field: fieldIndex,
          active: c.status === "active",
          nameLength: c[field].length,
          license: c.license,
          doc: c.doc,
        };
        if (!best || compareRanked(r, best) < 0) best = r;
      });
      if (best) ranked.push(best);
    }
    return ranked
      .sort(compareRanked)
      .slice(0, MAX_RESULTS)
      .map((r) => r.doc);
  });

  function findCandidates(id: number, fields: readonly string[], queryWords: string[]): Candidate[] {
    const t = datasetTables(id);
    const indexed = queryWords.filter((w) => w.length >= MIN_INDEXED_WORD);
    const columns = `r.license, r.doc, r.status, r.business_key, r.owner_key, r.address_key`;
    if (indexed.length === 0) {
      // Words of one or two characters: no trigram to look up, so scan this state's rows.
      const where = fields.map((f) => queryWords.map(() => `instr(r.${f}, ?) > 0`).join(" AND ")).join(" OR ");
      return prepared(`SELECT ${columns} FROM ${t.rows} r WHERE ${where}`).all(
        ...fields.flatMap(() => queryWords),
      ) as Candidate[];
    }
    // Normalized words hold only letters and digits, so quoting makes each a plain FTS5 phrase.
    const match = fields.map((f) => `(${indexed.map((w) => `${f} : "${w}"`).join(" AND ")})`).join(" OR ");
    return prepared(
      `SELECT ${columns} FROM ${t.index} s JOIN ${t.rows} r ON r.id = s.rowid WHERE ${t.index} MATCH ?`,
    ).all(match) as Candidate[];
  }

  return {
    /** The stored JSON of the license with exactly this number, or null. */
    get: (state: string, license: string): string | null => get(state, license),
    /** The stored JSON of the best matches, at most MAX_RESULTS, best first. */
    search: (query: SearchQuery): string[] => search(query),
    /** States with live data. */
    coverage: (): Coverage[] =>
      (coverage.all() as Omit<Coverage, "name">[]).map((c) => ({ ...c, name: stateName(c.state) ?? c.state })),
    /** Whether a state has live data. */
    has: (state: string): boolean => liveDataset.get(state) !== undefined,
  };
}

export type LicenseRepo = ReturnType<typeof createLicenseRepo>;
