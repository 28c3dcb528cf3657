/** `text` with each occurrence of the search's words marked, case-insensitively. */
export function Highlight({ text, words }: { text: string; words: readonly string[] }) {
  if (!words.length) return text;
  // Longest first, so a word is marked whole rather than a shorter word inside it.
  const alternatives = [...words].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const pattern = new RegExp(`(${alternatives.join("|")})`, "giu");
  // split with one capture group puts the matches at the odd indexes
  return text.split(pattern).map((part, i) => (i % 2 ? <mark key={i}>{part}</mark> : part));
}

export function searchWords(q: string): string[] {
  return q.split(/\s+/u).filter(Boolean);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
