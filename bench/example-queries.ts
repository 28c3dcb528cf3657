import type { MixQuery } from "./query-mix.ts";

/**
 * Queries as clerks type them: the issue's own examples, and the slowest found while profiling
 * (`llc` and `corp` took about 25 ms, `dead rabbit` 2.3 ms, before field starts stopped going
 * through FTS5 `^`), and the slowest kind known: words typed out of their order. Timed in-process
 * beside the mix; not part of the targets' mix.
 */
export type ExampleQuery = MixQuery & {
  /** Runs timed, when the bench's count would take minutes; the table says so in its kind. */
  runs?: number;
};

export const EXAMPLE_QUERIES: ExampleQuery[] = [
  { label: "issue example", by: "name", q: "dead rabbit" },
  { label: "issue example", by: "address", q: "30 water st" },
  { label: "common suffix", by: "name", q: "llc" },
  { label: "common suffix", by: "name", q: "corp" },
  { label: "street name", by: "address", q: "broadway" },
  { label: "three words", by: "name", q: "new york wine" },
  // A common pair typed against its order: every row holding both must be read to know none has them in order.
  { label: "words out of order (20 runs)", by: "name", q: "york new", runs: 20 },
];
