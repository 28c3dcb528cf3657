import { datasetTables } from "./dataset-tables.ts";
import { mapUntilChange } from "./change-watch.ts";
import { allowedEdits, Vocabulary } from "./near-words.ts";
import type { Db } from "./open-database.ts";
import type { KeyField, QueryWord, SearchTerms } from "./search-terms.ts";
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
    const startsAnyWord = (form: string) => fields.some((f) => startsAWord(t.words(f), form));
    const misspelt = (word: QueryWord) => {
      const typed = word.forms[0]!;
      return !typed.includes(" ") && allowedEdits(typed) > 0 && !word.forms.some(startsAnyWord);
    };
    const typos = new Set(terms.words.filter(misspelt));
    const initials = withInitials(terms.words, startsAnyWord);
    let corrected = initials.changed;
    const words: SearchTerms["words"] = [];
    // A word withInitials changed is one of 3 letters or fewer: never a typo (allowedEdits).
    for (const word of initials.words) {
      if (!typos.has(word)) {
        words.push(word);
        continue;
      }
      const typed = word.forms[0]!;
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

const INITIALS = /^[a-z]{1,3}$/;

/** `rjs` -> `r js`, `rj s`, `r j s`: the ways a short word may have been initials spelt apart. */
function spacings(word: string): string[] {
  if (word.length < 2) return [];
  const rest = word.slice(1);
  return [
    `${word[0]} ${rest}`,
    ...spacings(rest).map((s) => `${word[0]}${s}`),
    ...spacings(rest).map((s) => `${word[0]} ${s}`),
  ].filter((form, i, all) => all.indexOf(form) === i);
}

/**
 * Single letters written apart or together are the same word: a run of one-letter words ("p j")
 * also stands for them joined ("pj"), and a word of two letters ("pj") for its letters apart ("p j").
 * So does a word of three that has no vowel ("tjs", though TJS GROUP LLC exists) or starts no word of
 * the data ("rjs", from R J'S): "new" and "and" stay words, and their ways apart would cost every
 * query that holds them. The last word of several is being typed ("new yr", "new yro"), not initials:
 * taken apart, each keystroke cost tens of milliseconds over a million owners' middle initials.
 * Exported for the tests' plain rule.
 */
export function withInitials(
  words: SearchTerms["words"],
  startsAWord: (form: string) => boolean,
): { words: SearchTerms["words"]; changed: boolean } {
  const out: SearchTerms["words"] = [];
  let changed = false;
  for (let i = 0; i < words.length; i++) {
    const typed = words[i]!.forms[0]!;
    let end = i;
    while (
      typed.length === 1 &&
      INITIALS.test(typed) &&
      words[end + 1]?.forms[0]?.length === 1 &&
      INITIALS.test(words[end + 1]!.forms[0]!)
    )
      end++;
    const beingTyped = words.length > 1 && i === words.length - 1;
    if (end > i) {
      const letters = words.slice(i, end + 1).map((w) => w.forms[0]!);
      out.push({ forms: [letters.join(" "), letters.join("")] });
      changed = true;
      i = end;
    } else if (
      !beingTyped &&
      INITIALS.test(typed) &&
      (typed.length === 2 || (typed.length === 3 && (!/[aeiou]/.test(typed) || !startsAWord(typed))))
    ) {
      out.push({ forms: [...words[i]!.forms, ...spacings(typed)] });
      changed = true;
    } else {
      out.push(words[i]!);
    }
  }
  return { words: out, changed };
}
