import type { LicenseRepo } from "../server/store/license-repo.ts";
import { searchPath } from "./api-paths.ts";
import { INSTANT_MIN_LENGTH } from "../src/search/search-url.ts";
import { percentiles, timeRuns, type Percentiles, type Runs } from "./percentiles.ts";
import type { MixQuery } from "./query-mix.ts";

export type ClassLatency = Map<string, Percentiles>;

/** The store's ranked search, called in this process, per query class. */
export async function rankedLatency(
  repo: LicenseRepo,
  state: string,
  mix: MixQuery[],
  runs: Runs,
): Promise<ClassLatency> {
  const result: ClassLatency = new Map();
  for (const { label, by, q } of mix) {
    result.set(label, percentiles(await timeRuns(() => repo.search({ state, by, q }), runs)));
  }
  return result;
}

/** The naive LIKE baseline, per query class. */
export async function naiveLatency(
  naive: (by: MixQuery["by"], q: string) => string[],
  mix: MixQuery[],
  runs: Runs,
): Promise<ClassLatency> {
  const result: ClassLatency = new Map();
  for (const { label, by, q } of mix) result.set(label, percentiles(await timeRuns(() => naive(by, q), runs)));
  return result;
}

/** The same mix over HTTP, one request at a time on a kept-alive connection, body read in full. */
export async function httpLatency(
  url: string,
  key: string,
  state: string,
  mix: MixQuery[],
  runs: Runs,
): Promise<ClassLatency> {
  const headers = { authorization: `Bearer ${key}` };
  const result: ClassLatency = new Map();
  for (const query of mix) {
    const target = url + searchPath(state, query);
    const get = async () => {
      const response = await fetch(target, { headers });
      const body = await response.text();
      if (!response.ok) throw new Error(`${target} answered ${response.status}: ${body.slice(0, 200)}`);
    };
    result.set(query.label, percentiles(await timeRuns(get, runs)));
  }
  return result;
}

/** A mix query and what the app searches on the way to it: every prefix of 2+ characters, spaces at the ends aside. */
export interface TypedQuery {
  query: MixQuery;
  prefixes: string[];
}

/** The mix's queries of three characters or more, as typed: one character searches nothing in the app. */
export function typedQueries(mix: MixQuery[]): TypedQuery[] {
  return mix
    .filter(({ q }) => [...q.trim()].length >= 3)
    .map((query) => {
      const prefixes = [...query.q].map((_, i) => query.q.slice(0, i + 1));
      return { query, prefixes: prefixes.filter((p) => p === p.trim() && [...p].length >= INSTANT_MIN_LENGTH) };
    });
}

/**
 * Each prefix's durations in ms: `searchWithProvenance` in-process, what the app asks at each keystroke.
 * Round after round every query is typed in order, so a prefix runs after the one before it, as it does
 * when typed, and the machine's spells of noise fall on every prefix alike.
 */
export async function typedLatency(
  repo: LicenseRepo,
  state: string,
  typed: TypedQuery[],
  { warmup, iterations }: Runs,
): Promise<Map<string, number[]>[]> {
  const durations = typed.map(({ prefixes }) => new Map(prefixes.map((p) => [p, [] as number[]])));
  for (let round = 0; round < warmup + iterations; round++) {
    for (const [i, { query, prefixes }] of typed.entries()) {
      for (const q of prefixes) {
        const started = performance.now();
        repo.searchWithProvenance({ state, by: query.by, q });
        if (round >= warmup) durations[i]!.get(q)!.push(performance.now() - started);
      }
    }
    // Timers and I/O of the process get their turn between rounds, not inside one.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return durations;
}
