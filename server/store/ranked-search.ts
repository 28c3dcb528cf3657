import type { Statement } from "better-sqlite3";
import { MAX_RESULTS } from "../../src/contract/envelopes.ts";
import { datasetTables } from "./dataset-tables.ts";
import { words } from "./normalize.ts";
import type { Db } from "./open-database.ts";
import { MIN_INSIDE_WORD, startsInOrder, type KeyField, type SearchTerms } from "./search-terms.ts";

/** A "starts with" range this small is read whole and sorted; a larger one is read in rank order. */
const SMALL_RANGE = 2000;

export interface RankedSearchOptions {
  /** Tests lower it to take the large-range path on small data. */
  smallRange?: number;
}
/** Above every character a key can hold, so `key < prefix || TOP` bounds the keys starting with prefix. */
const TOP = "\u{10FFFF}";

interface Hit {
  rank: number;
  row_id: number;
}

/**
 * The best MAX_RESULTS rows for a query over one data set, in the order search-ranking.ts defines:
 * tier by tier, and within a tier field by field (business before owner), each field's rows read
 * in its precomputed rank order so that most queries stop after a few index reads.
 */
export function createRankedSearch(db: Db, { smallRange = SMALL_RANGE }: RankedSearchOptions = {}) {
  const statements = new Map<string, Statement<unknown[]>>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare<unknown[]>(sql);
      statements.set(sql, statement);
    }
    return statement;
  };

  return function rankedSearch(datasetId: number, fields: readonly KeyField[], terms: SearchTerms): number[] {
    const t = datasetTables(datasetId);
    const found: number[] = [];
    const seen = new Set<number>();
    const full = () => found.length >= MAX_RESULTS;
    /** Takes hits in order, skipping rows already placed by a better tier or field. */
    const take = (hits: Iterable<Hit>) => {
      for (const { row_id } of hits) {
        if (full()) return;
        if (!seen.has(row_id)) {
          seen.add(row_id);
          found.push(row_id);
        }
      }
    };
    const enough = () => MAX_RESULTS - found.length + seen.size;

    // Tier 0: the field equals the query.
    for (const field of fields) {
      take(prepared(`SELECT rank, row_id FROM ${t.ranks(field)} WHERE key = ? ORDER BY rank LIMIT ?`).all(terms.whole, enough()) as Hit[]);
    }
    // Tier 1: the field starts with the query.
    for (const field of fields) {
      if (full()) return found;
      take(startingWith(t.ranks(field), terms));
    }
    // Tiers 2 and 3: every word starts a word of the field; in the query's order first.
    const anyOrder: Hit[][] = [];
    for (const field of fields) {
      if (full()) return found;
      const later: Hit[] = [];
      for (const hit of matching(t.ranks(field), t.words(field), wordStartMatch(terms))) {
        if (seen.has(hit.row_id)) continue;
        if (startsInOrder(words(hit.key), terms)) take([hit]);
        else later.push(hit);
        if (full()) return found;
      }
      anyOrder.push(later);
    }
    for (const hits of anyOrder) take(hits);
    // Tier 4: the rest of the matches, words found inside field words.
    for (const field of fields) {
      if (full()) return found;
      for (const hit of matching(t.ranks(field), t.words(field), anywhereMatch(terms))) {
        take([hit]);
        if (full()) return found;
      }
    }
    return found;

    /** Rows whose key starts with a prefix, best first (rows equal to the query are skipped by take). */
    function startingWith(ranks: string, terms: SearchTerms): Hit[] {
      const hits: Hit[] = [];
      for (const prefix of terms.prefixes) {
        const range = prepared(`SELECT rank, row_id FROM ${ranks} WHERE key >= ? AND key < ? LIMIT ?`).all(
          prefix,
          prefix + TOP,
          smallRange + 1,
        ) as Hit[];
        if (range.length <= smallRange) {
          hits.push(...range);
        } else {
          // Many rows start so: reading in rank order finds the best ones within a few hundred rows.
          hits.push(
            ...(prepared(`SELECT rank, row_id FROM ${ranks} WHERE substr(key, 1, ?) = ? ORDER BY rank LIMIT ?`).all(
              [...prefix].length,
              prefix,
              enough(),
            ) as Hit[]),
          );
        }
      }
      return hits.sort((a, b) => a.rank - b.rank);
    }

    function matching(ranks: string, index: string, match: string) {
      return prepared(
        `SELECT s.rowid AS rank, r.row_id, r.key FROM ${index} s JOIN ${ranks} r ON r.rank = s.rowid
         WHERE ${index} MATCH ? ORDER BY s.rowid`,
      ).iterate(match) as IterableIterator<Hit & { key: string }>;
    }
  };
}

/** FTS5 query: every word (in any of its forms) at the start of a word. */
function wordStartMatch(terms: SearchTerms): string {
  return terms.words.map((w) => `(${w.forms.map((f) => `"^^${f}"`).join(" OR ")})`).join(" AND ");
}

/** FTS5 query: every word anywhere; words under three characters at a word start. */
function anywhereMatch(terms: SearchTerms): string {
  return terms.words
    .map((w) => `(${w.forms.map((f) => (f.length >= MIN_INSIDE_WORD ? `"${f}"` : `"^^${f}"`)).join(" OR ")})`)
    .join(" AND ");
}
