import { formStartsAt, MIN_INSIDE_WORD, type SearchTerms } from "./search-terms.ts";
import { words } from "../../src/contract/normalize-text.ts";

/** The weakest tier: some word of the query occurs only inside a word of the field. */
export const INSIDE_A_WORD = 3;

/**
 * The ranking rule, written plainly: how well one field key matches, lower is better, null is no match.
 * The order the words were typed in does not count: 0 the field equals the query's words in some
 * order (terms.wholes) · 1 it starts with them in some order, the last perhaps half typed (terms.orders) · 2 every
 * word starts a field word · 3 (INSIDE_A_WORD) some word only occurs inside a field word.
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
  if (terms.wholes.includes(field)) return 0;
  if (terms.orders.some((order) => field.startsWith(order))) return 1;
  return terms.words.every((w) => w.forms.some(startsAWord)) ? 2 : INSIDE_A_WORD;
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
