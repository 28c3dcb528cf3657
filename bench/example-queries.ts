import type { MixQuery } from "./query-mix.ts";

/**
 * Queries as clerks type them: the issue's own examples, and the slowest found while profiling
 * (`llc` and `corp` took about 25 ms, `dead rabbit` 2.3 ms, before field starts stopped going
 * through FTS5 `^`). Timed in-process beside the mix; not part of the targets' mix. Words out of
 * their order, once the slowest kind, are in the mix now.
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
];
