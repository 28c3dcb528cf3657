import type { License } from "../contract/license.ts";
import { normalizeText, words } from "../contract/normalize-text.ts";
import type { SearchQuery } from "../contract/search-query.ts";

/**
 * The words of a search that a result holds only as a close match (the service forgives a typo or two,
 * and a word of the data typed for another): each query word that the business or owner (the street
 * line, searching by address) holds neither at the start of a word nor, from three characters, inside
 * one, as the service matches words. Single letters count written apart or together, as the service
 * counts them: "pj" matches P J CLARKE'S.
 */
export function closeMatchWords(query: SearchQuery, license: License): string[] {
  const held = heldWords(license, query.by);
  // MIRABITO holds "rabit" as typed: the service lists it before any close match, unmarked.
  const holds = (h: string, word: string) => (word.length >= 3 ? h.includes(word) : h.startsWith(word));
  const unmatched = (asked: string[]) => asked.filter((word) => !held.some((h) => holds(h, word)));
  const asked = words(normalizeText(query.q));
  const apart = unmatched(asked);
  if (apart.length === 0) return [];
  const together = unmatched(joinInitials(asked));
  return together.length < apart.length ? together : apart;
}

// A record's words, worked out once: the same record comes back in answer after answer as the clerk types.
const heldByRecord = new WeakMap<License, Partial<Record<SearchQuery["by"], string[]>>>();

/** The words a search by `by` looks at in a record, with its runs of single letters also joined. */
function heldWords(license: License, by: SearchQuery["by"]): string[] {
  let known = heldByRecord.get(license);
  if (!known) heldByRecord.set(license, (known = {}));
  return (known[by] ??= (by === "name" ? [license.business, license.owner] : [license.address.line_1]).flatMap(
    (field) => {
      const own = words(normalizeText(field));
      return [...own, ...joinInitials(own)];
    },
  ));
}

/** Runs of single letters written as one word: ["p", "j", "clarkes"] -> ["pj", "clarkes"]. */
function joinInitials(list: readonly string[]): string[] {
  const out: string[] = [];
  let run = "";
  for (const word of list) {
    if (word.length === 1) {
      run += word;
      continue;
    }
    if (run) out.push(run);
    run = "";
    out.push(word);
  }
  if (run) out.push(run);
  return out;
}
