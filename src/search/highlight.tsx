import { createContext, useContext } from "react";

/**
 * What marks the search's words in a list of results. Through context, so that a keystroke draws again the marked
 * text of each result and nothing else of a result that did not change.
 */
export const HighlightPattern = createContext<RegExp | null>(null);

/** `text` with each occurrence of the search's words marked, case-insensitively, where `marked`; as it is otherwise. */
export function Highlight({ text, marked }: { text: string; marked: boolean }) {
  const pattern = useContext(HighlightPattern);
  if (!pattern || !marked) return text;
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
