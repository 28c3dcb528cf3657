export interface Percentiles {
  n: number;
  p50: number;
  p95: number;
  p99: number;
}

/** Nearest-rank percentiles of durations in ms. */
export function percentiles(samples: number[]): Percentiles {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  return { n: sorted.length, p50: at(50), p95: at(95), p99: at(99) };
}

export interface Runs {
  warmup: number;
  iterations: number;
}

/** Durations in ms of `iterations` calls, after `warmup` calls that are not counted. */
export async function timeRuns(run: () => unknown, { warmup, iterations }: Runs): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await run();
  const durations: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    await run();
    durations.push(performance.now() - started);
  }
  return durations;
}
