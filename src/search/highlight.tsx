/** `text` with each occurrence of the search's words marked, case-insensitively; as it is without a pattern. */
export function Highlight({ text, pattern }: { text: string; pattern: RegExp | null }) {
  if (!pattern) return text;
  // split with one capture group puts the matches at the odd indexes
  return text.split(pattern).map((part, i) => (i % 2 ? <mark key={i}>{part}</mark> : part));
}

/** What marks a search's words, made once for all its results; null when it has none. */
export function highlightPattern(q: string): RegExp | null {
  const words = q.split(/\s+/u).filter(Boolean);
  if (!words.length) return null;
  // Longest first, so a word is marked whole rather than a shorter word inside it.
  const alternatives = words.sort((a, b) => b.length - a.length).map(escapeRegExp);
  return new RegExp(`(${alternatives.join("|")})`, "giu");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
