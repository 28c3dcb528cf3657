import { mapUntilChange } from "./change-watch.ts";
import type { Db } from "./open-database.ts";
import { statementCache } from "./statement-cache.ts";
import { MIN_INSIDE_WORD } from "./search-terms.ts";

/**
 * Every distinct word of a field, and which of them hold a query word as search matches it: at
 * the start of a word for one or two characters, anywhere in it from three. Sorted, for the
 * words starting with a form; filed by their trigrams, for the words holding one.
 */
export class WordList {
  readonly words: readonly string[];
  private readonly byTrigram = new Map<string, number[]>();

  constructor(words: Iterable<string>) {
    const sorted = [...words].sort();
    this.words = sorted;
    sorted.forEach((word, index) => {
      const trigrams = new Set<string>();
      for (let at = 0; at + 3 <= word.length; at++) trigrams.add(word.slice(at, at + 3));
      for (const trigram of trigrams) {
        const list = this.byTrigram.get(trigram);
        if (list) list.push(index);
        else this.byTrigram.set(trigram, [index]);
      }
    });
  }

  /** Whether a word starts with the form. */
  startsAWord(form: string): boolean {
    return this.words[this.firstFrom(form)]?.startsWith(form) ?? false;
  }

  /** The words holding the form, or null when more than `most` do. */
  holding(form: string, most: number): string[] | null {
    const found: string[] = [];
    if (form.length < MIN_INSIDE_WORD) {
      for (let at = this.firstFrom(form); this.words[at]?.startsWith(form); at++) {
        if (found.length === most) return null;
        found.push(this.words[at]!);
      }
      return found;
    }
    // The rarest of the form's trigrams names the fewest words to look at.
    let fewest: number[] | undefined;
    for (let at = 0; at + 3 <= form.length; at++) {
      const list = this.byTrigram.get(form.slice(at, at + 3)) ?? [];
      if (!fewest || list.length < fewest.length) fewest = list;
    }
    for (const index of fewest ?? []) {
      const word = this.words[index]!;
      if (!word.includes(form)) continue;
      if (found.length === most) return null;
      found.push(word);
    }
    return found;
  }

  /** Where the form would sort among the words. */
  private firstFrom(form: string): number {
    let low = 0;
    let high = this.words.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.words[middle]! < form) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

const lists = new WeakMap<Db, (table: string) => WordList>();

/**
 * A data set's word lists (dataset-tables.ts vocabulary), each read the first time a search needs
 * it and kept until the database changes: an import makes new tables under new names.
 */
export function wordLists(db: Db): (table: string) => WordList {
  let list = lists.get(db);
  if (list) return list;
  const prepared = statementCache(db);
  const known = mapUntilChange<string, WordList>(db);
  list = (table) => {
    const current = known.current();
    let words = current.get(table);
    if (!words) {
      words = new WordList(prepared(`SELECT word FROM ${table}`).pluck().all() as string[]);
      current.set(table, words);
    }
    return words;
  };
  lists.set(db, list);
  return list;
}
