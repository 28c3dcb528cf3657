import { datasetTables } from "./dataset-tables.ts";
import { mapUntilChange } from "./change-watch.ts";
import { allowedEdits, Vocabulary } from "./near-words.ts";
import type { Db } from "./open-database.ts";
import { termsOf, type KeyField, type QueryWord, type SearchTerms } from "./search-terms.ts";
import { wordLists } from "./word-lists.ts";

/** The near words a query word may stand for, nearest first: enough for a typo, few enough to stay fast. */
const MOST_NEAR_WORDS = 12;

/**
 * Typo tolerance: the ways a query may be widened when the search as typed finds too little, in the
 * order they are tried, each after the one before (the caller stops when one finds enough):
 * 1. each word that starts no word of the data stands for the words of the data within one edit
 *    (4-7 letters) or two (8 or more) of it, and initials written apart or together are one word;
 * 2. every word of 4 letters or more stands for those near words as well as for itself: a word that
 *    is a word of the data may still be a typo ("blak", a word in New Jersey, for "black").
 */
export function createCloseMatch(db: Db) {
  const wordList = wordLists(db);
  // A data set's words filed for typos, once; an import makes new tables under new names.
  const vocabularies = mapUntilChange<string, Vocabulary>(db);
  const vocabulary = (table: string): Vocabulary => {
    const known = vocabularies.current();
    let words = known.get(table);
    if (!words) {
      words = new Vocabulary(wordList(table).words);
      known.set(table, words);
    }
    return words;
  };

  /** The widened terms, worked out only as far as the caller reads. */
  return function* closeTerms(
    datasetId: number,
    fields: readonly KeyField[],
    terms: SearchTerms,
  ): Generator<SearchTerms> {
    const t = datasetTables(datasetId);
    // Typed as a word is typed: from its start. "rabit" inside GARABITO is no reason to take it as written.
    const startsAnyWord = (form: string) => fields.some((f) => wordList(t.vocabulary(f)).startsAWord(form));
    const nearWords = (typed: string) =>
      [
        ...new Set(
          fields
            .flatMap((f) => vocabulary(t.vocabulary(f)).near(typed, MOST_NEAR_WORDS))
            .sort((a, b) => a.edits - b.edits || (a.word < b.word ? -1 : 1))
            .map((n) => n.word),
        ),
      ].slice(0, MOST_NEAR_WORDS);
    const typo = (word: QueryWord) => {
      const typed = word.forms[0]!;
      return !typed.includes(" ") && allowedEdits(typed) > 0;
    };
    // Kept as typed in the first step: a word that starts a word of the data, or that no typo can be.
    const kept = new Map(terms.words.map((w) => [w, !typo(w) || w.forms.some(startsAnyWord)]));
    const initials = withInitials(terms.words, startsAnyWord);

    const typosNear: QueryWord[] = [];
    // A word withInitials changed is one of 3 letters or fewer: never a typo (allowedEdits).
    for (const word of initials.words) {
      if (kept.get(word) ?? true) {
        typosNear.push(word);
        continue;
      }
      const near = nearWords(word.forms[0]!);
      // No word of the data starts with it, and none is near it: no widening can find the query.
      if (near.length === 0) return;
      typosNear.push({ forms: near, whole: near });
    }
    if (initials.changed || typosNear.some((w, i) => w !== initials.words[i])) yield termsOf(typosNear);

    let widened = false;
    const everyWordNear = typosNear.map((word, i) => {
      if (!kept.get(initials.words[i]!) || !typo(word)) return word;
      const near = nearWords(word.forms[0]!).filter((n) => !word.forms.includes(n));
      if (near.length === 0) return word;
      widened = true;
      return { forms: [...word.forms, ...near], whole: [...word.whole, ...near] };
    });
    if (widened) yield termsOf(everyWordNear);
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
      const forms = [letters.join(" "), letters.join("")];
      out.push({ forms, whole: forms });
      changed = true;
      i = end;
    } else if (
      !beingTyped &&
      INITIALS.test(typed) &&
      (typed.length === 2 || (typed.length === 3 && (!/[aeiou]/.test(typed) || !startsAWord(typed))))
    ) {
      out.push({ forms: [...words[i]!.forms, ...spacings(typed)], whole: [...words[i]!.whole, ...spacings(typed)] });
      changed = true;
    } else {
      out.push(words[i]!);
    }
  }
  return { words: out, changed };
}
