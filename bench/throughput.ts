import autocannon from "autocannon";
import { percentiles } from "./percentiles.ts";

export interface LoadOptions {
  url: string;
  /** Paths taken in turn, one per request, across all connections. */
  paths: string[];
  headers?: Record<string, string>;
  seconds: number;
  connections?: number;
  /** Requests a second across all connections (latencies then each answer's own, to the microsecond); none: as fast as the server answers. */
  rate?: number;
}

export interface LoadResult {
  rps: number;
  requests: number;
  p50: number;
  p99: number;
  /** Failed requests, timeouts included (autocannon counts a timeout as an error too). */
  errors: number;
  timeouts: number;
  /** Responses whose status is not 200, by status. */
  unexpected: Record<string, number>;
  /** At a steady rate, each 200's own time in ms, to pool over several runs; empty otherwise. */
  latencies: number[];
}

/** autocannon at saturation (pipelining 1), or at `rate` requests a second, rotating through the paths. */
export async function applyLoad({
  url,
  paths,
  headers = {},
  seconds,
  connections = 50,
  rate,
}: LoadOptions): Promise<LoadResult> {
  let next = 0;
  const run = autocannon({
    url,
    connections,
    duration: seconds,
    pipelining: 1,
    ...(rate === undefined ? {} : { overallRate: rate }),
    headers,
    requests: [{ setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length]! }) }],
  });
  // At a steady rate, each answer's own time: autocannon's histogram counts whole milliseconds, too coarse for a
  // p99 of a few (4 against 5 ms reads as 25%). At saturation its figures stand, as the recorded runs have them.
  const times: number[] = [];
  if (rate !== undefined) {
    void run.on("response", (_client, status, _bytes, ms) => void (status === 200 && times.push(ms)));
  }
  const result = await run;
  const exact = times.length ? percentiles(times) : null;
  const unexpected = Object.fromEntries(
    Object.entries(result.statusCodeStats)
      .filter(([status]) => status !== "200")
      .map(([status, { count }]) => [status, count]),
  );
  return {
    rps: result.requests.total / result.duration,
    requests: result.requests.total,
    p50: exact?.p50 ?? result.latency.p50,
    p99: exact?.p99 ?? result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    unexpected,
    latencies: times,
  };
}

/** Requests that did not come back as a 200: errors (timeouts among them) and other statuses. */
export function failures(result: LoadResult): number {
  return result.errors + Object.values(result.unexpected).reduce((a, b) => a + b, 0);
}
