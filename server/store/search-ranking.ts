import { formStartsAt, MIN_INSIDE_WORD, type SearchTerms } from "./search-terms.ts";
import { words } from "../../src/contract/normalize-text.ts";

/**
 * The ranking rule, written plainly: how well one field key matches, lower is better, null is no match.
 * 0 the field equals the query · 1 it starts with the query · 2 every word starts a field word, in
 * the query's order · 3 in any order · 4 some word only occurs inside a field word.
 * A word matches where it occurs anywhere in the field; a word under three characters only at a word start.
 * ranked-search.ts computes the same order fast; tests hold it to this definition.
 */
export function matchTier(field: string, terms: SearchTerms): number | null {
  const fieldWords = words(field);
  const startsAWord = (form: string) => fieldWords.some((_, at) => formStartsAt(fieldWords, at, form));
  // Initials spelt apart ("p j") are whole words: they match only where a word starts.
  const occurs = (form: string) =>
    form.length >= MIN_INSIDE_WORD && !form.includes(" ") ? field.includes(form) : startsAWord(form);
  if (!terms.words.every((w) => w.forms.some(occurs))) return null;
  if (field === terms.whole) return 0;
  if (terms.prefixes.some((p) => field.startsWith(p))) return 1;
  if (!terms.words.every((w) => w.forms.some(startsAWord))) return 4;
  return startsInOrder(fieldWords, terms) ? 2 : 3;
}

/** Whether the query words start field words in the query's order. */
function startsInOrder(fieldWords: string[], terms: SearchTerms): boolean {
  let at = 0;
  for (const w of terms.words) {
    while (at < fieldWords.length && !w.forms.some((f) => formStartsAt(fieldWords, at, f))) at++;
    if (at === fieldWords.length) return false;
    at++;
  }
  return true;
}

export interface Ranked {
  tier: number;
  /** Position of the matched field: business 0, owner 1 (address search: 0). */
  field: number;
  active: boolean;
  /** Length of the matched field. */
  length: number;
  license: string;
}

/** Tier, then business before owner, active first, shorter fields, then license number. */
export function compareRanked(a: Ranked, b: Ranked): number {
  return (
    a.tier - b.tier ||
    a.field - b.field ||
    Number(b.active) - Number(a.active) ||
    a.length - b.length ||
    (a.license < b.license ? -1 : a.license > b.license ? 1 : 0)
  );
}
