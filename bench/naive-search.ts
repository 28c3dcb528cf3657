import { MAX_RESULTS } from "../src/contract/envelopes.ts";
import type { SearchField } from "../src/contract/search-query.ts";
import { datasetTables } from "../server/store/dataset-tables.ts";
import type { Db } from "../server/store/open-database.ts";
import { fieldKey, FIELDS_BY } from "../server/store/search-terms.ts";

/** The rows table of a state's live data set. */
export function liveRowsTable(db: Db, state: string): string {
  const id = db.prepare(`SELECT id FROM datasets WHERE state = ? AND status = 'live'`).pluck().get(state) as number;
  if (id === undefined) throw new Error(`no live data for ${state}`);
  return datasetTables(id).rows;
}

/** `business_key LIKE ? OR owner_key LIKE ?` for name, `address_key LIKE ?` for address. */
function likeAny(by: SearchField): string {
  return FIELDS_BY[by].map((field) => `${field}_key LIKE @q`).join(" OR ");
}

/** The pattern a naive search would send: the normalized query anywhere in the key. */
function pattern(by: SearchField, q: string): string {
  // Normalized keys hold only letters, digits and spaces, so no LIKE wildcard can slip in.
  return `%${fieldKey(FIELDS_BY[by][0]!, q)}%`;
}

/**
 * The baseline: what search would be without an index, `LIKE '%q%'` over the same rows, sorted
 * (active first, shorter name, license number) and cut to ten, as a first implementation would.
 */
export function createNaiveSearch(db: Db, rows: string) {
  const statements = Object.fromEntries(
    (["name", "address"] as const).map((by) => [
      by,
      db
        .prepare(
          `SELECT doc FROM ${rows} WHERE ${likeAny(by)}
           ORDER BY active DESC, length(${FIELDS_BY[by][0]}_key), license LIMIT ${MAX_RESULTS}`,
        )
        .pluck(),
    ]),
  ) as Record<SearchField, ReturnType<Db["prepare"]>>;
  return (by: SearchField, q: string) => statements[by].all({ q: pattern(by, q) }) as string[];
}

/** How many rows a naive search matches (to pick rare and absent words). */
export function naiveMatchCount(db: Db, rows: string, by: SearchField, q: string): number {
  return db
    .prepare(`SELECT count(*) FROM ${rows} WHERE ${likeAny(by)}`)
    .pluck()
    .get({ q: pattern(by, q) }) as number;
}

/** How many rows hold both words in one name field (business or owner), anywhere in it. */
export function naiveTogetherCount(db: Db, rows: string, a: string, b: string): number {
  const both = FIELDS_BY.name.map((field) => `(${field}_key LIKE @a AND ${field}_key LIKE @b)`).join(" OR ");
  return db
    .prepare(`SELECT count(*) FROM ${rows} WHERE ${both}`)
    .pluck()
    .get({ a: `%${a}%`, b: `%${b}%` }) as number;
}
