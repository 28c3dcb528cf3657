import { datasetTables } from "./dataset-tables.ts";
import { mapUntilChange } from "./change-watch.ts";
import { allowedEdits, Vocabulary } from "./near-words.ts";
import type { Db } from "./open-database.ts";
import type { KeyField, SearchTerms } from "./search-terms.ts";
import { statementCache } from "./statement-cache.ts";

/** The near words a misspelt query word may stand for, nearest first: enough for a typo, few enough to stay fast. */
const MOST_NEAR_WORDS = 12;

/**
 * Typo tolerance: a query with a word that starts no word of the data as typed, asked again with that word
 * standing for the words of the data within one edit (4-7 letters) or two (8 or more). Only a
 * search with no exact match gets here, so close matches never come before an exact one.
 */
export function createCloseMatch(db: Db) {
  const prepared = statementCache(db);
  // A data set's words, read once; an import makes new tables under new names.
  const vocabularies = mapUntilChange<string, Vocabulary>(db);
  const vocabulary = (table: string): Vocabulary => {
    const known = vocabularies.current();
    let words = known.get(table);
    if (!words) {
      words = new Vocabulary(prepared(`SELECT word FROM ${table}`).pluck().all() as string[]);
      known.set(table, words);
    }
    return words;
  };
  // Typed as a word is typed: from its start. "rabit" inside GARABITO is no reason to take it as written.
  const startsAWord = (index: string, form: string) =>
    prepared(`SELECT 1 FROM ${index} WHERE ${index} MATCH ? LIMIT 1`).pluck().get(`"^${form}"`) !== undefined;

  /** The terms with each word no row holds replaced by its near words; null when none needs it, or one has none. */
  return function closeTerms(datasetId: number, fields: readonly KeyField[], terms: SearchTerms): SearchTerms | null {
    const t = datasetTables(datasetId);
    let corrected = false;
    const words: SearchTerms["words"] = [];
    for (const word of terms.words) {
      const typed = word.forms[0]!;
      const found =
        allowedEdits(typed) === 0 || word.forms.some((form) => fields.some((f) => startsAWord(t.words(f), form)));
      if (found) {
        words.push(word);
        continue;
      }
      const near = fields
        .flatMap((f) => vocabulary(t.vocabulary(f)).near(typed, MOST_NEAR_WORDS))
        .sort((a, b) => a.edits - b.edits || (a.word < b.word ? -1 : 1));
      const forms = [...new Set(near.map((n) => n.word))].slice(0, MOST_NEAR_WORDS);
      if (forms.length === 0) return null;
      words.push({ forms });
      corrected = true;
    }
    if (!corrected) return null;
    const whole = words.map((w) => w.forms[0]!).join(" ");
    return { words, whole, prefixes: [whole] };
  };
}
