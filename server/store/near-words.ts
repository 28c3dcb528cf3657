/**
 * Typo tolerance: the words of a field's vocabulary within one edit of a query word of 4-7 letters,
 * or two of a longer one; an edit is a letter added, dropped, changed, or two neighbours swapped.
 */
export function allowedEdits(word: string): number {
  // A number is never a typo of another: 1541 Main St is not 1542.
  if (/\d/.test(word)) return 0;
  const length = [...word].length;
  return length >= 8 ? 2 : length >= 4 ? 1 : 0;
}

// Three rows of the distance table, reused: a word longer than this is compared by its first letters.
const LONGEST = 64;
const rows = [new Int32Array(LONGEST + 1), new Int32Array(LONGEST + 1), new Int32Array(LONGEST + 1)];

/**
 * The optimal-string-alignment distance of a and b (Levenshtein plus neighbour swaps), or max + 1
 * as soon as it must exceed max: most candidates are given up after a row or two.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const m = Math.min(a.length, LONGEST);
  const n = Math.min(b.length, LONGEST);
  let [before, previous, current] = rows as [Int32Array, Int32Array, Int32Array];
  for (let j = 0; j <= n; j++) previous[j] = j;
  for (let i = 1; i <= m; i++) {
    current[0] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const bj = b.charCodeAt(j - 1);
      let d = previous[j - 1]! + (ai === bj ? 0 : 1);
      if (previous[j]! + 1 < d) d = previous[j]! + 1;
      if (current[j - 1]! + 1 < d) d = current[j - 1]! + 1;
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj && before[j - 2]! + 1 < d) {
        d = before[j - 2]! + 1;
      }
      current[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    [before, previous, current] = [previous, current, before];
  }
  return previous[n]!;
}

/** The ends a word is filed under: its first and last two letters; a short word's single end letters too. */
function ends(word: string, letters: number): string[] {
  return [`${word.length}^${word.slice(0, letters)}`, `${word.length}$${word.slice(-letters)}`];
}

/**
 * A vocabulary's words filed by length and by their ends. One edit touches at most two neighbouring
 * letters, so a word of five letters or more one edit away keeps its first two letters or its last
 * two (a four-letter word its first or its last letter): a word of 4-7 letters is compared with a
 * few hundred words, not the whole vocabulary. Two edits can change both ends, so a word of 8 or
 * more is compared with every word of a length two edits can reach.
 */
export class Vocabulary {
  private readonly byEnd = new Map<string, string[]>();
  private readonly byLength = new Map<number, { words: string[]; masks: number[] }>();

  constructor(words: Iterable<string>) {
    for (const word of words) {
      if (/\d/.test(word)) continue;
      const same = this.byLength.get(word.length) ?? { words: [], masks: [] };
      this.byLength.set(word.length, same);
      same.words.push(word);
      same.masks.push(letterMask(word));
      const keys = word.length <= 5 ? [...ends(word, 2), ...ends(word, 1)] : ends(word, 2);
      for (const key of new Set(keys)) {
        const list = this.byEnd.get(key);
        if (list) list.push(word);
        else this.byEnd.set(key, [word]);
      }
    }
  }

  /** Words within the allowed edits of `word` (never itself), nearest first, at most `limit`. */
  near(word: string, limit: number): { word: string; edits: number }[] {
    const max = allowedEdits(word);
    if (max === 0) return [];
    const letters = word.length <= 4 ? 1 : 2;
    const found = new Map<string, number>();
    const mask = letterMask(word);
    for (let length = word.length - max; length <= word.length + max; length++) {
      if (max === 1) {
        for (const key of [`${length}^${word.slice(0, letters)}`, `${length}$${word.slice(-letters)}`]) {
          for (const candidate of this.byEnd.get(key) ?? []) {
            if (found.has(candidate)) continue;
            const edits = editDistance(word, candidate, max);
            if (edits > 0 && edits <= max) found.set(candidate, edits);
          }
        }
        continue;
      }
      const same = this.byLength.get(length);
      if (!same) continue;
      for (let k = 0; k < same.words.length; k++) {
        // An edit adds or takes away at most two letters of the set a word uses: most words differ by more.
        if (bitCount(mask ^ same.masks[k]!) > 2 * max) continue;
        const candidate = same.words[k]!;
        const edits = editDistance(word, candidate, max);
        if (edits > 0 && edits <= max) found.set(candidate, edits);
      }
    }
    return [...found]
      .map(([w, edits]) => ({ word: w, edits }))
      .sort((a, b) => a.edits - b.edits || (a.word < b.word ? -1 : 1))
      .slice(0, limit);
  }
}

/** Which of a-z (and, folded together, any other letter) a word uses, one bit each. */
function letterMask(word: string): number {
  let mask = 0;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i) - 97;
    mask |= 1 << (c >= 0 && c < 26 ? c : 26);
  }
  return mask;
}

function bitCount(n: number): number {
  n = n - ((n >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (((n + (n >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
