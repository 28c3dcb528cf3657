import type { SearchField } from "../../src/contract/search-query.ts";
import { normalizeText, words } from "../../src/contract/normalize-text.ts";
import { canonicalStreetWord } from "./street-words.ts";

/** The normalized fields search runs over: business and owner for `name`, address line 1 for `address`. */
export type KeyField = "business" | "owner" | "address";

export const FIELDS_BY: Record<SearchField, readonly KeyField[]> = {
  name: ["business", "owner"],
  address: ["address"],
};

/** Words this short can only be matched at the start of a word (trigrams need three characters). */
export const MIN_INSIDE_WORD = 3;

/** A field's text as it is indexed and compared. */
export function fieldKey(field: KeyField, text: string): string {
  const normalized = normalizeText(text);
  return field === "address" ? words(normalized).map(canonicalStreetWord).join(" ") : normalized;
}

export interface QueryWord {
  /** Every form that counts as this word: what was typed, and its canonical street form. */
  forms: string[];
}

export interface SearchTerms {
  words: QueryWord[];
  /** A field equal to this is tier 0. */
  whole: string;
  /** A field starting with one of these is tier 1 (the last word may be half typed). */
  prefixes: string[];
}

export function searchTerms(by: SearchField, q: string): SearchTerms | null {
  const typed = words(normalizeText(q));
  if (typed.length === 0) return null;
  const canonical = by === "address" ? typed.map(canonicalStreetWord) : typed;
  const whole = canonical.join(" ");
  const halfTyped = [...canonical.slice(0, -1), typed.at(-1)!].join(" ");
  return {
    words: typed.map((t, i) => ({ forms: [...new Set([t, canonical[i]!])] })),
    whole,
    prefixes: [...new Set([whole, halfTyped])],
  };
}

/**
 * Whether a form starts the field word at `at`. A form of several words (initials spelt apart, "p j")
 * is those words in a row, each whole but the last, which may be half typed.
 */
export function formStartsAt(fieldWords: readonly string[], at: number, form: string): boolean {
  if (!form.includes(" ")) return fieldWords[at]?.startsWith(form) ?? false;
  const parts = form.split(" ");
  return parts.every((part, k) =>
    k === parts.length - 1 ? (fieldWords[at + k]?.startsWith(part) ?? false) : fieldWords[at + k] === part,
  );
}
