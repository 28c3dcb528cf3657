/**
 * The one text form names are compared in, by the service's search (its index and its queries) and
 * by the app (a name on a clerk's list against the record's), so that matching ignores case,
 * accents, punctuation and apostrophes (`JOE'S` = `JOES` = `Joe's`) and `&` = `and`.
 */
export function normalizeText(text: string): string {
  // Most names are plain ASCII: nothing to decompose, and the search index is built from millions.
  const decomposed = /^[\x20-\x7e]*$/.test(text) ? text : text.normalize("NFKD").replace(/\p{M}+/gu, "");
  return (
    decomposed
      .toLowerCase()
      .replace(/&/g, " and ")
      // Apostrophes and periods join rather than split: JOE'S = JOES, P.J. = PJ, ST. = ST.
      .replace(/['’‘`´.]/g, "")
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim()
  );
}

/** The words of normalized text. */
export function words(normalized: string): string[] {
  return normalized === "" ? [] : normalized.split(" ");
}
