import { MAX_RESULTS } from "../../src/contract/envelopes.ts";
import { datasetTables, markWordStarts } from "./dataset-tables.ts";
import { words } from "./normalize.ts";
import type { Db } from "./open-database.ts";
import { statementCache } from "./statement-cache.ts";
import { MIN_INSIDE_WORD, startsInOrder, type KeyField, type SearchTerms } from "./search-terms.ts";

interface Hit {
  rank: number;
  row_id: number;
}

/**
 * The best MAX_RESULTS rows for a query over one data set, in the order search-ranking.ts defines:
 * tier by tier, and within a tier field by field (business before owner), each field's rows read
 * in its precomputed rank order so that most queries stop after a few index reads.
 */
export function createRankedSearch(db: Db) {
  const prepared = statementCache(db);

  return function rankedSearch(datasetId: number, fields: readonly KeyField[], terms: SearchTerms): number[] {
    const t = datasetTables(datasetId);
    const found: number[] = [];
    const seen = new Set<number>();
    const full = () => found.length >= MAX_RESULTS;
    /**
     * Takes hits in order, skipping rows already placed by a better tier or field, and stops
     * reading (which resets a lazily read statement) as soon as the results are full.
     */
    const take = (hits: Iterable<Hit>) => {
      if (full()) return;
      for (const { row_id } of hits) {
        if (seen.has(row_id)) continue;
        seen.add(row_id);
        found.push(row_id);
        if (full()) return;
      }
    };
    const enough = () => MAX_RESULTS - found.length + seen.size;

    // Tier 0: the field equals the query.
    for (const field of fields) {
      take(prepared(`SELECT rank, row_id FROM ${t.ranks(field)} WHERE key = ? ORDER BY rank LIMIT ?`).all(terms.whole, enough()) as Hit[]);
    }
    // Tier 1: the field starts with the query (FTS5 `^`: the phrase at the start of the column).
    // A lazily read statement is opened only while results are missing: one left unread stays busy.
    for (const field of fields) if (!full()) take(matching(t.ranks(field), t.words(field), fieldStartMatch(terms)));
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
    for (const field of fields) if (!full()) take(matching(t.ranks(field), t.words(field), anywhereMatch(terms)));
    return found;

    function matching(ranks: string, index: string, match: string) {
      return prepared(
        `SELECT s.rowid AS rank, r.row_id, r.key FROM ${index} s JOIN ${ranks} r ON r.rank = s.rowid
         WHERE ${index} MATCH ? ORDER BY s.rowid`,
      ).iterate(match) as IterableIterator<Hit & { key: string }>;
    }
  };
}

/** FTS5 query: the field starts with the query (the last word may be half typed). */
function fieldStartMatch(terms: SearchTerms): string {
  return terms.prefixes.map((prefix) => `^"${markWordStarts(prefix)}"`).join(" OR ");
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
