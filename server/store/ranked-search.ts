import { MAX_RESULTS } from "../../src/contract/envelopes.ts";
import { datasetTables, markWordStarts } from "./dataset-tables.ts";
import type { Db } from "./open-database.ts";
import { statementCache } from "./statement-cache.ts";
import { wordLists } from "./word-lists.ts";
import { INSIDE_A_WORD, matchTier } from "./search-ranking.ts";
import { MIN_INSIDE_WORD, type KeyField, type QueryWord, type SearchTerms } from "./search-terms.ts";

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
  /**
   * Several words are looked up in the index of whole words when each is held by at most this many
   * words of the field (0: never, the trigram index alone)...
   */
  mostHoldingWords?: number;
  /**
   * ...a word held by more (40 words of owner names start with "gr") in the keys of the first this
   * many rows holding the others, and past them in the trigram index.
   */
  wordScan?: number;
}

const DEFAULTS: Required<RankedSearchOptions> = {
  allAtOnce: 20,
  fewStarters: 200,
  startScan: 200,
  manyStarters: 10_000,
  mostHoldingWords: 32,
  wordScan: 2000,
};

/** A search's rows, best first, and the tier of the best row it added (null when it added none). */
export interface RankedRows {
  rows: number[];
  tier: number | null;
}

/**
 * The best MAX_RESULTS rows for a query over one data set, in the order search-ranking.ts defines:
 * tier by tier, and within a tier field by field (business before owner), each field's rows read
 * in its precomputed rank order so that most queries stop after a few index reads. Rows `placed`
 * by an earlier search come first, as they are, and are not found again.
 */
export function createRankedSearch(db: Db, options: RankedSearchOptions = {}) {
  const { allAtOnce, fewStarters, startScan, manyStarters, mostHoldingWords, wordScan } = { ...DEFAULTS, ...options };
  // Limits are written into the SQL, not bound: SQLite runs a statement with `LIMIT ?` markedly slower
  // than the same with its number written in, and each limit takes only a few values (a statement each).
  const prepared = statementCache(db);
  const wordList = wordLists(db);

  return function rankedSearch(
    datasetId: number,
    fields: readonly KeyField[],
    terms: SearchTerms,
    placed: readonly number[] = [],
  ): RankedRows {
    const t = datasetTables(datasetId);
    const found: number[] = [...placed];
    const seen = new Set<number>(placed);
    let tier: number | null = null;
    const full = () => found.length >= MAX_RESULTS;
    const done = (): RankedRows => ({ rows: found, tier });
    /**
     * Takes hits of a tier in order, skipping rows already placed by a better tier or field, and stops
     * reading (which resets a lazily read statement) as soon as the results are full.
     */
    const take = (hits: Iterable<Hit>, ofTier: number) => {
      if (full()) return;
      for (const { row_id } of hits) {
        if (seen.has(row_id)) continue;
        seen.add(row_id);
        found.push(row_id);
        tier ??= ofTier;
        if (full()) return;
      }
    };
    const enough = () => MAX_RESULTS - found.length + seen.size;

    // Tier 0: the field equals the query's words in some order: one statement for every order, since
    // each costs more to run than SQLite takes to seek a key, and few rows share a key (IN reads them
    // all before it sorts); the keys bound one by one, which SQLite reads faster than a JSON array.
    for (const field of fields) {
      const equal = prepared(
        `SELECT rank, row_id FROM ${t.ranks(field)} WHERE key IN (${terms.wholes.map(() => "?").join(", ")})
         ORDER BY rank LIMIT ${enough()}`,
      );
      take(equal.all(...terms.wholes) as Hit[], 0);
    }
    if (full()) return done();
    // Rare queries end here: every match ranked at once (tiers 0 and 1 again among them). For one
    // word this costs an index read per field that stops after allAtOnce + 1 rows, less than
    // looking for field starts first. Several words make FTS5 intersect their matches, and one or
    // two letters start words in most rows: field starts, which usually fill the results, go first.
    const oneLongWord = terms.words.length === 1 && terms.words[0]!.forms.every((f) => f.length >= MIN_INSIDE_WORD);
    if (oneLongWord && rankAllIfFew()) return done();
    // Tier 1: the field starts with the query's words in some order.
    // A lazily read statement is opened only while results are missing: one left unread stays busy.
    for (const field of fields) if (!full()) take(startingWith(field), 1);
    if (full()) return done();
    if (terms.words.length > 1) return severalWords();
    // One word of one or two letters: a word start, so no match is inside a word.
    if (!oneLongWord && rankAllIfFew()) return done();
    // Tier 2: the word starts a word of the field.
    for (const field of fields) if (!full()) take(matching(field, wordStartMatch(terms)), 2);
    // Tier 3: the rest of the matches, the word found inside field words.
    for (const field of fields) if (!full()) take(matching(field, anywhereMatch(terms)), INSIDE_A_WORD);
    return done();

    /**
     * Tiers 2 and 3 of several words in one pass over each field's matches, in rank order: each row placed by
     * the plain rule (matchTier), every word starting a field word at once, a word inside one kept for after
     * them. FTS5 intersecting common words is the cost here: the walk stops once the results are full, and
     * takes whole words where it can (wholeWordsMatch).
     */
    function severalWords(): RankedRows {
      const inside: Hit[][] = [];
      for (const field of fields) {
        const within: Hit[] = [];
        inside.push(within);
        const wholes = wholeWordsMatch(field);
        if (wholes === NONE) continue;
        for (const hit of severalWordsHits(field, wholes)) {
          if (seen.has(hit.row_id)) continue;
          // Tiers 0 and 1 were read whole: a row of either is placed already.
          const rowTier = matchTier(hit.key, terms);
          if (rowTier === 2) take([hit], 2);
          else if (rowTier !== null) within.push(hit);
          if (full()) return done();
        }
      }
      for (const hits of inside) take(hits, INSIDE_A_WORD);
      return done();
    }

    /**
     * The rows that may hold every word, in rank order. A word of one or two letters typed last stands
     * for tens or hundreds of words of the field, and FTS5 steps through the rows of each of them to
     * intersect them with the other words, though the first rows of those often hold it, or none does.
     * So when the other words are held by few, their first rows come first, kept where the key holds
     * the words left out; then every word's query past them, so that every match is found.
     */
    function* severalWordsHits(field: KeyField, wholes: WholeWords): Generator<KeyedHit> {
      let from = 0;
      if (wholes.few !== null) {
        yield* firstRowsHolding(field, wholes.few, wholes.leftOut, wordScan);
        const past = rankAfter(field, wholes.few, wordScan);
        if (past === undefined) return;
        from = past;
      }
      yield* wholes.every === null
        ? matching(field, candidatesMatch(terms), from)
        : matching(field, wholes.every, from, t.wordIndex(field));
    }

    /**
     * Of the first `scan` rows of a whole-words query, those whose key holds each word left out (as
     * matchTier finds a word: inside a field word from three letters, else at a word start), lazily:
     * SQLite reads the keys, so that only matches cross into JavaScript.
     */
    function firstRowsHolding(field: KeyField, match: string, leftOut: QueryWord[], scan: number) {
      const index = t.wordIndex(field);
      const forms = leftOut.map((w) =>
        w.forms.map((f) => (f.length >= MIN_INSIDE_WORD && !f.includes(" ") ? f : ` ${f}`)),
      );
      const holds = forms.map((each) => `(${each.map(() => "instr(' ' || key, ?) > 0").join(" OR ")})`).join(" AND ");
      return prepared(
        `SELECT rank, row_id, key FROM (
           SELECT s.rowid AS rank, r.row_id, r.key FROM ${index} s JOIN ${t.ranks(field)} r ON r.rank = s.rowid
           WHERE ${index} MATCH ? ORDER BY s.rowid LIMIT ${scan}
         ) WHERE ${holds}`,
      ).iterate(match, ...forms.flat()) as IterableIterator<KeyedHit>;
    }

    /** The rank of a whole-words query's row number `count`, or undefined when it has fewer. */
    function rankAfter(field: KeyField, match: string, count: number): number | undefined {
      const index = t.wordIndex(field);
      return prepared(`SELECT rowid FROM ${index} WHERE ${index} MATCH ? ORDER BY rowid LIMIT 1 OFFSET ${count - 1}`)
        .pluck()
        .get(match) as number | undefined;
    }

    /**
     * The query as FTS5 queries of the field's whole words, each query word standing for the words of
     * the field that hold it (WholeWords), or NONE when no word of the field holds one of them.
     */
    function wholeWordsMatch(field: KeyField): WholeWords | typeof NONE {
      if (mostHoldingWords === 0) return { every: null, few: null, leftOut: [] };
      const list = wordList(t.vocabulary(field));
      const every: string[] = [];
      const few: string[] = [];
      const leftOut: QueryWord[] = [];
      for (const word of terms.words) {
        const holding = new Set<string>();
        let unknown = false;
        for (const form of word.forms) {
          const found = form.includes(" ") ? null : list.holding(form, mostHoldingWords);
          if (found === null) unknown = true;
          else for (const w of found) holding.add(w);
        }
        if (!unknown && holding.size === 0) return NONE;
        const many = unknown || holding.size > mostHoldingWords;
        const whole = `(${[...holding].map((w) => `"${w}"`).join(" OR ")})`;
        if (!many) every.push(whole);
        if (many) leftOut.push(word);
        else few.push(whole);
      }
      return {
        every: every.length === terms.words.length ? every.join(" AND ") : null,
        few: leftOut.length > 0 && few.length > 0 ? few.join(" AND ") : null,
        leftOut,
      };
    }

    /**
     * Every match ranked by the plain rule after the rows placed before, or false when some field has
     * more than allAtOnce matches.
     */
    function rankAllIfFew(): boolean {
      const match = candidatesMatch(terms);
      const perField: number[][] = [];
      for (const field of fields) {
        const index = t.words(field);
        const ranks = prepared(`SELECT rowid FROM ${index} WHERE ${index} MATCH ? LIMIT ${allAtOnce + 1}`)
          .pluck()
          .all(match);
        if (ranks.length > allAtOnce) return false;
        perField.push(ranks as number[]);
      }
      const best = new Map<number, { tier: number; field: number; rank: number }>();
      fields.forEach((field, index) => {
        for (const { rank, row_id, key } of rowsOfRanks(field, perField[index]!)) {
          const rowTier = matchTier(key, terms);
          if (rowTier === null || placed.includes(row_id)) continue;
          const known = best.get(row_id);
          if (!known || rowTier < known.tier) best.set(row_id, { tier: rowTier, field: index, rank });
        }
      });
      // Tier 0 is read again among them, in its place.
      found.length = placed.length;
      seen.clear();
      for (const rowId of placed) seen.add(rowId);
      tier = null;
      // compareRanked's order: a field's rank already stands for active first, length, license.
      const ranked = [...best].sort(([, a], [, b]) => a.tier - b.tier || a.field - b.field || a.rank - b.rank);
      for (const [rowId, { tier: rowTier }] of ranked) take([{ rank: 0, row_id: rowId }], rowTier);
      return true;
    }

    /**
     * Rows whose key starts with the query's words in some order, in rank order. FTS5 `^` alone is
     * slow (milliseconds for `dead rabbit`, 25 ms for `llc`) whenever its first trigrams are common,
     * so: few starters come off the key index; many are first looked for among word-start matches,
     * which common prefixes fill quickly; what a short scan leaves comes off the key index, or from
     * `^` past manyStarters.
     */
    function* startingWith(field: KeyField): Generator<Hit> {
      // One or two letters: `^` reads a trigram or two, which is as fast as it gets.
      if (terms.orders.every((order) => order.length <= 2)) {
        yield* matching(field, fieldStartMatch(terms));
        return;
      }
      if (!moreStartersThan(field, fewStarters)) return yield* rowsOfRanks(field, firstStarters(field, 0));
      let last = 0;
      let scanned = 0;
      for (const hit of matching(field, wordStartMatch(terms))) {
        if (terms.orders.some((order) => hit.key.startsWith(order))) yield hit;
        last = hit.rank;
        if (++scanned >= startScan) break;
      }
      if (scanned < startScan) return;
      // The scan's statement is closed: the connection can be asked something else.
      if (!moreStartersThan(field, manyStarters)) return yield* rowsOfRanks(field, firstStarters(field, last));
      yield* matching(field, fieldStartMatch(terms), last);
    }

    /**
     * Whether more than `limit` keys start with one of the orders, asked of the one row past the
     * limit: the key index holds the rank (rowid), so this never reads the table.
     */
    function moreStartersThan(field: KeyField, limit: number): boolean {
      return (
        prepared(
          `SELECT 1 FROM (${ordersTable()}) o
           WHERE (SELECT 1 FROM ${t.ranks(field)} WHERE key >= o.column1 AND key < o.column1 || ? LIMIT 1 OFFSET ?)
           LIMIT 1`,
        ).get(...terms.orders, PAST_EVERY_KEY, limit) !== undefined
      );
    }

    /** The best ranks after `after` among the keys starting with an order: as many as could still be placed. */
    function firstStarters(field: KeyField, after: number): number[] {
      // A key starting with two orders ("30 water st", "30 water street") comes twice; DISTINCT cost more.
      const ranks = prepared(
        `SELECT r.rank FROM (${ordersTable()}) o JOIN ${t.ranks(field)} r INDEXED BY ${t.ranks(field)}_key
           ON r.key >= o.column1 AND r.key < o.column1 || ?
         WHERE r.rank > ? ORDER BY r.rank LIMIT ${enough() * terms.orders.length}`,
      )
        .pluck()
        .all(...terms.orders, PAST_EVERY_KEY, after) as number[];
      return [...new Set(ranks)].slice(0, enough());
    }

    /** The orders as rows of a table (column1), each bound on its own: cheaper than a JSON array of them. */
    function ordersTable(): string {
      return `VALUES ${terms.orders.map(() => "(?)").join(", ")}`;
    }

    function rowsOfRanks(field: KeyField, ranks: number[]): KeyedHit[] {
      if (ranks.length === 0) return [];
      return prepared(
        `SELECT rank, row_id, key FROM ${t.ranks(field)} WHERE rank IN (SELECT value FROM json_each(?)) ORDER BY rank`,
      ).all(JSON.stringify(ranks)) as KeyedHit[];
    }

    /**
     * A field's FTS5 matches in rank order, after rank `from`, read lazily: from its trigram index, or
     * `index` (its whole words).
     */
    function matching(field: KeyField, match: string, from = 0, index = t.words(field)) {
      return prepared(
        `SELECT s.rowid AS rank, r.row_id, r.key FROM ${index} s JOIN ${t.ranks(field)} r ON r.rank = s.rowid
         WHERE ${index} MATCH ? AND s.rowid > ? ORDER BY s.rowid`,
      ).iterate(match, from) as IterableIterator<KeyedHit>;
    }
  };
}

/** A field's whole-words queries (wholeWordsMatch). */
interface WholeWords {
  /** Every word; null when one is held by too many words to ask for at once (or is initials apart), for the trigrams. */
  every: string | null;
  /** The words held by few words, when others are left out; null when none is left out, or none is held by few. */
  few: string | null;
  /** Held by too many words. */
  leftOut: QueryWord[];
}

/** No row of the field can match. */
const NONE = Symbol("no row");

/** Every key starting with a prefix sorts between it and the prefix followed by this, the last code point. */
const PAST_EVERY_KEY = "\u{10FFFF}";

/** FTS5 query: the field starts with the query's words in some order (the last word may be half typed). */
function fieldStartMatch(terms: SearchTerms): string {
  return terms.orders.map((order) => `^"${markWordStarts(order)}"`).join(" OR ");
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
  return terms.words.map((w) => `(${w.forms.map(anywhere).join(" OR ")})`).join(" AND ");
}

/** FTS5 phrase: `form` anywhere, or at a word start under three characters. */
function anywhere(form: string): string {
  return form.length >= MIN_INSIDE_WORD && !form.includes(" ") ? `"${form}"` : atWordStart(form);
}

/**
 * FTS5 query of the rows that may match, for a caller that places each by matchTier: anywhereMatch, but
 * initials apart ("z q") as each at a word start rather than as one phrase. A phrase across words holds
 * the trigram " ^^", which nearly every row holds, and FTS5 reads it at every row that holds the rarest
 * of the phrase's other trigrams.
 */
function candidatesMatch(terms: SearchTerms): string {
  return terms.words
    .map((w) => `(${w.forms.map((f) => (f.includes(" ") ? `(${eachApart(f)})` : anywhere(f))).join(" OR ")})`)
    .join(" AND ");
}

/** FTS5 query: every word of initials apart at a word start, all but the last whole. */
function eachApart(form: string): string {
  const parts = form.split(" ");
  return parts.map((p, k) => (k < parts.length - 1 ? `"^^${p} "` : atWordStart(p))).join(" AND ");
}
