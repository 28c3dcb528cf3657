import type { ClassLatency } from "./latency.ts";
import type { Percentiles } from "./percentiles.ts";
import type { MixQuery } from "./query-mix.ts";
import { markdownTable, ms, pct, verdict } from "./table.ts";
import type { Endpoint, RoundsResult } from "./throughput-rounds.ts";

export const SPEED_TARGET = { p99Ms: 5, share: { license: 0.6, search: 0.4 }, rssMb: 300, buildSeconds: 60 };

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
        verdict(r.p99 <= SPEED_TARGET.p99Ms),
        ms(h.p50),
        ms(h.p95),
        ms(h.p99),
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

export function throughputTable({ best, apiFailures }: RoundsResult, names: Record<Endpoint, string>): string {
  const row = (endpoint: Endpoint) => {
    const [api, bare] = [best.api[endpoint], best.bare[endpoint]];
    const share = api.rps / bare.rps;
    const target = SPEED_TARGET.share[endpoint];
    return [
      names[endpoint],
      Math.round(api.rps),
      Math.round(bare.rps),
      pct(share),
      `>= ${pct(target)}: ${verdict(share >= target)}`,
      api.p50,
      api.p99,
      apiFailures[endpoint],
    ];
  };
  return markdownTable(
    [
      "API target",
      "req/s",
      "bare node:http req/s",
      "share of bare",
      "target",
      "p50 ms",
      "p99 ms",
      "errors + non-200 (all rounds)",
    ],
    [row("license"), row("search")],
  );
}
