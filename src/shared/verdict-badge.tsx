import type { VerdictWord } from "../contract/verdict.ts";

/**
 * The verdict's fixed word, and nothing else as text (copied or read aloud, it is the word). Its
 * colour is green for `valid` alone, on screen and on paper, and its mark (CSS) lets it read
 * without colour.
 */
export function VerdictBadge({ verdict }: { verdict: VerdictWord }) {
  return (
    <span className="verdict" data-verdict={verdict.replace(" ", "-")}>
      {verdict}
    </span>
  );
}
