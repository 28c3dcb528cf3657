import type { LicenseRepo } from "../server/store/license-repo.ts";
import { searchPath } from "./api-paths.ts";
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
