import { MAX_RESULTS } from "../../src/contract/envelopes.ts";
import { datasetTables, markWordStarts } from "./dataset-tables.ts";
import type { Db } from "./open-database.ts";
import { statementCache } from "./statement-cache.ts";
import { matchTier } from "./search-ranking.ts";
import { MIN_INSIDE_WORD, type KeyField, type SearchTerms } from "./search-terms.ts";

interface Hit {
  rank: number;
  row_id: number;
}
type KeyedHit = Hit & { key: string };

/** Where ranked search changes strategy; tests lower them to cover every path on small data. */
export interface RankedSearchOptions {
  /**
   * When no field has more matches than this, they are all read and ranked by the plain rule
   * (search-ranking.ts) at once: a rare name costs one index read per field, not one per tier.
   */
  allAtOnce?: number;
  /** Up to this many keys starting with the query are read off the key index at once, in rank order. */
  fewStarters?: number;
  /**
   * Past that, word-start matches are read in rank order and kept when the key starts with the
   * query (common prefixes start many of the rows that hold their words); after this many rows
   * without filling the results...
   */
  startScan?: number;
  /**
   * ...the rest of the starters come off the key index when there are at most this many (SQLite
   * picks the best by rank at a tenth of a microsecond a key), else from FTS5 `^`.
   */
  manyStarters?: number;
}

const DEFAULTS: Required<RankedSearchOptions> = {
  allAtOnce: 20,
  fewStarters: 200,
  startScan: 200,
  manyStarters: 10_000,
};

/**
 * The best MAX_RESULTS rows for a query over one data set, in the order search-ranking.ts defines:
 * tier by tier, and within a tier field by field (business before owner), each field's rows read
 * in its precomputed rank order so that most queries stop after a few index reads.
 */
export function createRankedSearch(db: Db, options: RankedSearchOptions = {}) {
  const { allAtOnce, fewStarters, startScan, manyStarters } = { ...DEFAULTS, ...options };
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
      take(
        prepared(`SELECT rank, row_id FROM ${t.ranks(field)} WHERE key = ? ORDER BY rank LIMIT ?`).all(
          terms.whole,
          enough(),
        ) as Hit[],
      );
    }
    if (full()) return found;
    // Rare queries end here: every match ranked at once (tiers 0 and 1 again among them). For one
    // word this costs an index read per field that stops after allAtOnce + 1 rows, less than
    // looking for field starts first. Several words make FTS5 intersect their matches, and one or
    // two letters start words in most rows: field starts, which usually fill the results, go first.
    const oneLongWord = terms.words.length === 1 && terms.words[0]!.forms.every((f) => f.length >= MIN_INSIDE_WORD);
    const all = oneLongWord && rankAllIfFew();
    if (all) return all;
    // Tier 1: the field starts with the query.
    // A lazily read statement is opened only while results are missing: one left unread stays busy.
    for (const field of fields) if (!full()) take(startingWith(field));
    if (full()) return found;
    if (terms.words.length > 1) return severalWords();
    // One word of one or two letters: a word start, so no match is inside a word.
    const allOfOthers = !oneLongWord && rankAllIfFew();
    if (allOfOthers) return allOfOthers;
    // Tier 2 (one word is always in the query's order): the word starts a word of the field.
    for (const field of fields) if (!full()) take(matching(field, wordStartMatch(terms)));
    // Tier 4: the rest of the matches, the word found inside field words.
    for (const field of fields) if (!full()) take(matching(field, anywhereMatch(terms)));
    return found;

    /**
     * Tiers 2 to 4 of several words in one pass over each field's matches, in rank order: each row placed by
     * the plain rule (matchTier), those in the query's order at once, the rest kept for after them. FTS5
     * intersecting common words is the cost here: one walk a field, where one for tiers 2 and 3, another for
     * tier 4 and a third to count them first took twice as long (`deli and grocery`, `golden lion tavern`).
     */
    function severalWords(): number[] {
      const anyOrder: Hit[][] = [];
      const inside: Hit[][] = [];
      for (const field of fields) {
        const later: Hit[] = [];
        const within: Hit[] = [];
        anyOrder.push(later);
        inside.push(within);
        for (const hit of matching(field, anywhereMatch(terms))) {
          if (seen.has(hit.row_id)) continue;
          // Tiers 0 and 1 were read whole: a row of either is placed already.
          const tier = matchTier(hit.key, terms);
          if (tier === 2) take([hit]);
          else if (tier === 3) later.push(hit);
          else within.push(hit);
          if (full()) return found;
        }
      }
      for (const hits of [...anyOrder, ...inside]) take(hits);
      return found;
    }

    /** Every match ranked by the plain rule, or null when some field has more than allAtOnce. */
    function rankAllIfFew(): number[] | null {
      const match = anywhereMatch(terms);
      const perField: number[][] = [];
      for (const field of fields) {
        const index = t.words(field);
        const ranks = prepared(`SELECT rowid FROM ${index} WHERE ${index} MATCH ? LIMIT ?`)
          .pluck()
          .all(match, allAtOnce + 1);
        if (ranks.length > allAtOnce) return null;
        perField.push(ranks as number[]);
      }
      const best = new Map<number, { tier: number; field: number; rank: number }>();
      fields.forEach((field, index) => {
        for (const { rank, row_id, key } of rowsOfRanks(field, perField[index]!)) {
          const tier = matchTier(key, terms);
          if (tier === null) continue;
          const known = best.get(row_id);
          if (!known || tier < known.tier) best.set(row_id, { tier, field: index, rank });
        }
      });
      // compareRanked's order: a field's rank already stands for active first, length, license.
      return [...best]
        .sort(([, a], [, b]) => a.tier - b.tier || a.field - b.field || a.rank - b.rank)
        .slice(0, MAX_RESULTS)
        .map(([rowId]) => rowId);
    }

    /**
     * Rows whose key starts with the query, in rank order. FTS5 `^` alone is slow (milliseconds for
     * `dead rabbit`, 25 ms for `llc`) whenever its first trigrams are common, so: few starters come
     * off the key index; many are first looked for among word-start matches, which common prefixes
     * fill quickly; what a short scan leaves comes off the key index, or from `^` past manyStarters.
     */
    function* startingWith(field: KeyField): Generator<Hit> {
      // One or two letters: `^` reads a trigram or two, which is as fast as it gets.
      if (terms.prefixes.every((prefix) => prefix.length <= 2)) {
        yield* matching(field, fieldStartMatch(terms));
        return;
      }
      if (!moreStartersThan(field, fewStarters)) return yield* rowsOfRanks(field, firstStarters(field, 0));
      let last = 0;
      let scanned = 0;
      for (const hit of matching(field, wordStartMatch(terms))) {
        if (terms.prefixes.some((prefix) => hit.key.startsWith(prefix))) yield hit;
        last = hit.rank;
        if (++scanned >= startScan) break;
      }
      if (scanned < startScan) return;
      // The scan's statement is closed: the connection can be asked something else.
      if (!moreStartersThan(field, manyStarters)) return yield* rowsOfRanks(field, firstStarters(field, last));
      yield* matching(field, fieldStartMatch(terms), last);
    }

    /**
     * Whether more than `limit` keys start with one of the prefixes, asked of the one row past the
     * limit: the key index holds the rank (rowid), so this never reads the table.
     */
    function moreStartersThan(field: KeyField, limit: number): boolean {
      return terms.prefixes.some(
        (prefix) =>
          prepared(`SELECT 1 FROM ${t.ranks(field)} WHERE key >= ? AND key < ? LIMIT 1 OFFSET ?`).get(
            ...startRange(prefix),
            limit,
          ) !== undefined,
      );
    }

    /** The best ranks after `after` among the keys starting with a prefix: as many as could still be placed. */
    function firstStarters(field: KeyField, after: number): number[] {
      const ranks = new Set<number>();
      for (const prefix of terms.prefixes) {
        const best = prepared(
          `SELECT rank FROM ${t.ranks(field)} INDEXED BY ${t.ranks(field)}_key
           WHERE key >= ? AND key < ? AND rank > ? ORDER BY rank LIMIT ?`,
        )
          .pluck()
          .all(...startRange(prefix), after, enough());
        for (const rank of best as number[]) ranks.add(rank);
      }
      return [...ranks].sort((a, b) => a - b).slice(0, enough());
    }

    function rowsOfRanks(field: KeyField, ranks: number[]): KeyedHit[] {
      if (ranks.length === 0) return [];
      return prepared(
        `SELECT rank, row_id, key FROM ${t.ranks(field)} WHERE rank IN (SELECT value FROM json_each(?)) ORDER BY rank`,
      ).all(JSON.stringify(ranks)) as KeyedHit[];
    }

    /** A field's FTS5 matches in rank order, after rank `from`, read lazily. */
    function matching(field: KeyField, match: string, from = 0) {
      const index = t.words(field);
      return prepared(
        `SELECT s.rowid AS rank, r.row_id, r.key FROM ${index} s JOIN ${t.ranks(field)} r ON r.rank = s.rowid
         WHERE ${index} MATCH ? AND s.rowid > ? ORDER BY s.rowid`,
      ).iterate(match, from) as IterableIterator<KeyedHit>;
    }
  };
}

/** Every key starting with the prefix sorts between it and the prefix plus the last code point. */
function startRange(prefix: string): [string, string] {
  return [prefix, `${prefix}\u{10FFFF}`];
}

/** FTS5 query: the field starts with the query (the last word may be half typed). */
function fieldStartMatch(terms: SearchTerms): string {
  return terms.prefixes.map((prefix) => `^"${markWordStarts(prefix)}"`).join(" OR ");
}

/**
 * FTS5 phrase: `form` at the start of a word. Keys hold `^` only in the `^^` before each word, so
 * `^ab...` can only be a word start: the leading `^^a` trigram, which nearly every row holds and
 * which made rare words slow, is left out. One letter needs both marks to make a trigram.
 */
function atWordStart(form: string): string {
  // Initials spelt apart ("p j"): each a word start, in a row.
  if (form.includes(" ")) return `"${markWordStarts(form)}"`;
  return form.length === 1 ? `"^^${form}"` : `"^${form}"`;
}

/** FTS5 query: every word (in any of its forms) at the start of a word. */
function wordStartMatch(terms: SearchTerms): string {
  return terms.words.map((w) => `(${w.forms.map(atWordStart).join(" OR ")})`).join(" AND ");
}

/** FTS5 query: every word anywhere; words under three characters at a word start. */
function anywhereMatch(terms: SearchTerms): string {
  return terms.words
    .map(
      (w) =>
        `(${w.forms.map((f) => (f.length >= MIN_INSIDE_WORD && !f.includes(" ") ? `"${f}"` : atWordStart(f))).join(" OR ")})`,
    )
    .join(" AND ");
}
