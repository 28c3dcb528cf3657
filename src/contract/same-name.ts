import { normalizeText, words } from "./normalize-text.ts";

/** Words that say what form a business takes, not which business it is. */
const FORM_WORDS = new Set([
  ...["llc", "inc", "corp", "co", "ltd", "lp", "llp", "pc", "the"],
  ...["incorporated", "corporation", "company", "limited"],
]);
/** Words that join a legal name to a trade name, as they read once initials are joined (D/B/A, T/A, A.K.A.). */
const DBA_WORDS = new Set(["dba", "aka", "fka", "ta"]);

/** A name's words as compared: the search's normalisation, initials joined, form and DBA words left out. */
function nameWords(name: string): string[] {
  // Initials written apart are one word, as written together: P J CLARKES = PJ CLARKES, D B A = DBA.
  const joined = normalizeText(name).replace(/(?<=(?:^| )\p{L}) (?=\p{L}(?: |$))/gu, "");
  const all = words(joined);
  const kept = all.filter((word) => !FORM_WORDS.has(word) && !DBA_WORDS.has(word));
  // A name made only of such words ("The Company") is still that name.
  return kept.length > 0 ? kept : all;
}

/** Every word of `short` in `long`, in the same order, others allowed between. */
function inOrder(short: string[], long: string[]): boolean {
  let found = 0;
  for (const word of long) if (word === short[found]) found++;
  return found === short.length;
}

/** Every word of `short` in `long`, in any order, each used once. */
function anyOrder(short: string[], long: string[]): boolean {
  const left = [...long];
  for (const word of short) {
    const at = left.indexOf(word);
    if (at === -1) return false;
    left.splice(at, 1);
  }
  return true;
}

function sameWords(a: string[], b: string[], within: (short: string[], long: string[]) => boolean): boolean {
  if (a.length === 0 || b.length === 0) return false;
  // Spacing aside, the same letters are the same name: RJS PLACE = R JS PLACE.
  if (a.join("") === b.join("")) return true;
  return a.length <= b.length ? within(a, b) : within(b, a);
}

/**
 * True when `given` names the record's business or owner: the same words after the search's
 * normalisation, ignoring business-form words (LLC, INC, THE...) and DBA noise; also true when all
 * words of the shorter name appear in the longer one, which is enough: the number is what finds the
 * record, and the name only has to catch a number that belongs to another business, whose name will
 * not hold every word of the clerk's. The business keeps its word order (Dead Rabbit is not Rabbit
 * Dead); an owner's does not matter, since people are written "SMITH, JOHN" as often as "John Smith".
 * An empty `given` is true (nothing to disagree with), and so is a record without a name.
 */
export function sameName(given: string, record: { business: string; owner: string }): boolean {
  const name = nameWords(given);
  const business = nameWords(record.business);
  const owner = nameWords(record.owner);
  if (name.length === 0 || business.length + owner.length === 0) return true;
  return sameWords(name, business, inOrder) || sameWords(name, owner, anyOrder);
}

/** True when every word of the street part of `given` (before its first comma) is on the record's street lines; "" is true. */
export function sameAddress(given: string, record: { address: { line_1: string; line_2?: string | null } }): boolean {
  const street = new Set(words(normalizeText(`${record.address.line_1} ${record.address.line_2 ?? ""}`)));
  // The street part only: the city and ZIP a clerk may add are not in line 1.
  return words(normalizeText(given.split(",")[0] ?? "")).every((w) => street.has(w));
}
