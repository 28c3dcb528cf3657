import { applyLoad, failures, type LoadOptions, type LoadResult } from "./throughput.ts";

export type Endpoint = "license" | "search";
export type Server = "bare" | "api";
type Targets = Record<Server, Record<Endpoint, Pick<LoadOptions, "url" | "paths">>>;

export interface RoundsResult {
  /** The best round of each server and endpoint: other work on the machine only ever lowers throughput. */
  best: Record<Server, Record<Endpoint, LoadResult>>;
  /** Failed requests to the API over all rounds. */
  apiFailures: Record<Endpoint, number>;
}

/**
 * Loads each server and endpoint for `seconds`, `rounds` times, the bare server and the API
 * taking turns so that other work on the machine weighs on both alike (2 s warm-up each first).
 */
export async function interleavedRounds(
  targets: Targets,
  { headers, seconds, rounds }: { headers: Record<string, string>; seconds: number; rounds: number },
): Promise<RoundsResult> {
  const servers = ["bare", "api"] as const;
  const endpoints = ["license", "search"] as const;
  for (const server of servers)
    for (const endpoint of endpoints) await applyLoad({ ...targets[server][endpoint], headers, seconds: 2 });

  const all = { bare: { license: [], search: [] }, api: { license: [], search: [] } } as Record<
    Server,
    Record<Endpoint, LoadResult[]>
  >;
  for (let round = 1; round <= rounds; round++) {
    for (const endpoint of endpoints) {
      for (const server of servers) {
        const result = await applyLoad({ ...targets[server][endpoint], headers, seconds });
        all[server][endpoint].push(result);
        console.log(`  round ${round} ${server.padEnd(4)} ${endpoint.padEnd(7)} ${Math.round(result.rps)} req/s`);
      }
    }
  }
  const best = (results: LoadResult[]) => results.reduce((a, b) => (b.rps > a.rps ? b : a));
  const failed = (results: LoadResult[]) => results.reduce((n, r) => n + failures(r), 0);
  return {
    best: {
      bare: { license: best(all.bare.license), search: best(all.bare.search) },
      api: { license: best(all.api.license), search: best(all.api.search) },
    },
    apiFailures: { license: failed(all.api.license), search: failed(all.api.search) },
  };
}
