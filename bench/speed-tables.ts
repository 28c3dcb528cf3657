import type { ClassLatency, TypedQuery } from "./latency.ts";
import { percentiles, type Percentiles } from "./percentiles.ts";
import type { MixQuery } from "./query-mix.ts";
import { BUDGETS } from "./budgets.ts";
import { markdownTable, ms, verdict } from "./table.ts";
import type { LoadResult } from "./throughput.ts";
import { failures } from "./throughput.ts";

export function latencyTable(
  mix: MixQuery[],
  hits: Map<string, number>,
  { ranked, http, naive }: Record<"ranked" | "http" | "naive", ClassLatency>,
): string {
  return markdownTable(
    [
      "class",
      "query",
      "hits",
      "ranked p50",
      "p95",
      "p99",
      "p99 <= 5 ms",
      "HTTP p50",
      "p95",
      "p99",
      "p99 <= 10 ms",
      "naive p50",
      "naive p99",
      "ranked/naive p50",
    ],
    mix.map(({ label, by, q }) => {
      const [r, h, n] = [ranked.get(label)!, http.get(label)!, naive.get(label)!];
      return [
        label,
        `${by}=${q}`,
        hits.get(label)!,
        ms(r.p50),
        ms(r.p95),
        ms(r.p99),
        verdict(r.p99 <= BUDGETS.rankedP99Ms),
        ms(h.p50),
        ms(h.p95),
        ms(h.p99),
        verdict(h.p99 <= BUDGETS.httpP99Ms),
        ms(n.p50),
        ms(n.p99),
        `${(r.p50 / n.p50).toFixed(4)} (${Math.round(n.p50 / r.p50)}x faster)`,
      ];
    }),
  );
}

/** In-process ranked search of the example queries: figures only, no target of their own. */
export function examplesTable(examples: MixQuery[], hits: number[], latency: Percentiles[]): string {
  return markdownTable(
    ["query", "kind", "hits", "ranked p50", "p95", "p99"],
    examples.map(({ label, by, q }, i) => [
      `${by}=${q}`,
      label,
      hits[i]!,
      ms(latency[i]!.p50),
      ms(latency[i]!.p95),
      ms(latency[i]!.p99),
    ]),
  );
}

/**
 * Every prefix of each query as typed, its durations pooled per query and over all: percentiles, the
 * slowest single search, and the prefixes slowest at their median (the one figure of a prefix the
 * machine's noise moves least).
 */
export function typedTable(typed: TypedQuery[], durations: Map<string, number[]>[]): string {
  const median = (samples: number[]) => percentiles(samples).p50;
  const row = (label: string, query: string, prefixes: Map<string, number[]>) => {
    const all = [...prefixes.values()].flat();
    const p = percentiles(all);
    const slowest = [...prefixes]
      .map(([q, samples]) => ({ q, ms: median(samples) }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 3)
      .map(({ q, ms: m }) => `${JSON.stringify(q)} ${ms(m)}`);
    return [label, query, prefixes.size, ms(p.p50), ms(p.p95), ms(p.p99), ms(Math.max(...all)), slowest.join(", ")];
  };
  // A prefix of two queries ("new y" of `new york` and `new yrok`) counts once, with both its runs.
  const everyPrefix = new Map<string, number[]>();
  durations.forEach((prefixes, i) => {
    for (const [q, samples] of prefixes) {
      const key = `${typed[i]!.query.by}=${q}`;
      everyPrefix.set(key, [...(everyPrefix.get(key) ?? []), ...samples]);
    }
  });
  return markdownTable(
    ["class", "typed", "prefixes", "p50", "p95", "p99", "max", "slowest prefixes (median ms)"],
    [
      ...typed.map(({ query }, i) => row(query.label, `${query.by}=${query.q}`, durations[i]!)),
      row("all", "", everyPrefix),
    ],
  );
}

/** Both operations at saturation for a while, the API alone: figures beside the memory peak, no target. */
export function loadTable(results: { name: string; result: LoadResult }[]): string {
  return markdownTable(
    ["API target", "req/s", "p50 ms", "p99 ms", "errors + non-200"],
    results.map(({ name, result }) => [name, Math.round(result.rps), result.p50, result.p99, failures(result)]),
  );
}
