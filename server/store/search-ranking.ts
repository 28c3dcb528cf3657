import { words } from "./normalize.ts";

/**
 * How well one normalized field matches the normalized query; lower is better, null is no match.
 * 0 field equals the query · 1 field starts with it · 2 every word starts a field word, in order ·
 * 3 every word starts a field word, any order · 4 some word only matches inside a field word.
 */
export function matchTier(field: string, query: string): number | null {
  const q = words(query);
  if (q.length === 0 || !q.every((w) => field.includes(w))) return null;
  if (field === query) return 0;
  if (field.startsWith(query)) return 1;
  const fieldWords = words(field);
  if (!q.every((w) => fieldWords.some((f) => f.startsWith(w)))) return 4;
  return startsInOrder(fieldWords, q) ? 2 : 3;
}

/** Whether the query words start field words in the query's order. */
function startsInOrder(fieldWords: string[], queryWords: string[]): boolean {
  let at = 0;
  for (const w of queryWords) {
    while (at < fieldWords.length && !fieldWords[at]!.startsWith(w)) at++;
    if (at === fieldWords.length) return false;
    at++;
  }
  return true;
}

export interface Ranked {
  tier: number;
  /** 0 when the business name matched, 1 when only the owner did (address search: 0). */
  field: number;
  active: boolean;
  nameLength: number;
  license: string;
}

/** Tier, then business before owner, active first, shorter names, then license number. */
export function compareRanked(a: Ranked, b: Ranked): number {
  return (
    a.tier - b.tier ||
    a.field - b.field ||
    Number(b.active) - Number(a.active) ||
    a.nameLength - b.nameLength ||
    (a.license < b.license ? -1 : a.license > b.license ? 1 : 0)
  );
}
