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

/** Up to this many words, a field equal to or starting with the query's words in any order is tier 0 or 1. */
export const MOST_WORDS_IN_ANY_ORDER = 4;

/**
 * Tier 0 and 1 look each of these up on a field's key index: close matches (twelve forms a word)
 * in every order would be hundreds. Past it, the typed order only, then the first this many.
 */
export const MOST_ORDERS = 128;

/** A field's text as it is indexed and compared. */
export function fieldKey(field: KeyField, text: string): string {
  const normalized = normalizeText(text);
  return field === "address" ? words(normalized).map(canonicalStreetWord).join(" ") : normalized;
}

export interface QueryWord {
  /** Every form that counts as this word: what was typed, and its canonical street form. */
  forms: string[];
  /**
   * The forms a whole word of a field can be: the canonical street form, never the abbreviation
   * typed (keys hold only canonical words). The last word of an order may be any form, half typed.
   */
  whole: string[];
}

export interface SearchTerms {
  words: QueryWord[];
  /**
   * The query's words joined in each order (every order up to MOST_WORDS_IN_ANY_ORDER words), each as
   * one of its whole forms: a field equal to one is tier 0.
   */
  wholes: string[];
  /** The same, the last word of each order as any of its forms (perhaps half typed): a field starting with one is tier 1. */
  orders: string[];
}

export function searchTerms(by: SearchField, q: string): SearchTerms | null {
  const typed = words(normalizeText(q));
  if (typed.length === 0) return null;
  return termsOf(
    typed.map((t) => {
      const canonical = by === "address" ? canonicalStreetWord(t) : t;
      return { forms: [...new Set([t, canonical])], whole: [canonical] };
    }),
  );
}

/** The terms of these words: their orders worked out once, for every tier test and index read. */
export function termsOf(words: QueryWord[]): SearchTerms {
  const anyOrder = words.length <= MOST_WORDS_IN_ANY_ORDER && orderCount(words) <= MOST_ORDERS;
  const each = anyOrder ? permutations(words) : [words];
  return { words, wholes: joined(each, "whole"), orders: joined(each, "forms") };
}

/** Each order's words joined, all but the last as one of its whole forms, nearest first: at most MOST_ORDERS. */
function joined(orders: QueryWord[][], last: "whole" | "forms"): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const order of orders) {
    // Only the first MOST_ORDERS beginnings can be used: each makes one order at least.
    let heads = [""];
    for (let i = 0; i < order.length - 1; i++) {
      const next: string[] = [];
      for (const head of heads)
        for (const form of order[i]!.whole) if (next.length < MOST_ORDERS) next.push(`${head}${form} `);
      heads = next;
    }
    for (const head of heads) {
      for (const form of order[order.length - 1]![last]) {
        const text = head + form;
        if (seen.has(text)) continue;
        seen.add(text);
        out.push(text);
        if (out.length === MOST_ORDERS) return out;
      }
    }
  }
  return out;
}

/** How many orders every permutation would make, before duplicates are dropped. */
function orderCount(words: QueryWord[]): number {
  let count = 0;
  for (let last = 0; last < words.length; last++) {
    let n = words[last]!.forms.length;
    words.forEach((w, i) => i !== last && (n *= w.whole.length));
    count += n;
  }
  let others = 1;
  for (let k = 2; k < words.length; k++) others *= k;
  return count * others;
}

function permutationsOf(count: number): number[][] {
  if (count <= 1) return [[0].slice(0, count)];
  return permutationsOf(count - 1).flatMap((rest) =>
    Array.from({ length: count }, (_, at) => [...rest.slice(0, at), count - 1, ...rest.slice(at)]),
  );
}

// Every query asks for them: worked out once, the typed order first.
const PERMUTATIONS = Array.from({ length: MOST_WORDS_IN_ANY_ORDER + 1 }, (_, count) =>
  permutationsOf(count).sort((a, b) => a.join().localeCompare(b.join())),
);

function permutations<T>(items: readonly T[]): T[][] {
  return PERMUTATIONS[items.length]!.map((order) => order.map((at) => items[at]!));
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
