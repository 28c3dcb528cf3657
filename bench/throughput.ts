import autocannon from "autocannon";

export interface LoadOptions {
  url: string;
  /** Paths taken in turn, one per request, across all connections. */
  paths: string[];
  headers?: Record<string, string>;
  seconds: number;
  connections?: number;
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
}

/** autocannon at saturation (pipelining 1), rotating through the paths. */
export async function applyLoad({
  url,
  paths,
  headers = {},
  seconds,
  connections = 50,
}: LoadOptions): Promise<LoadResult> {
  let next = 0;
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    pipelining: 1,
    headers,
    requests: [{ setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length]! }) }],
  });
  const unexpected = Object.fromEntries(
    Object.entries(result.statusCodeStats)
      .filter(([status]) => status !== "200")
      .map(([status, { count }]) => [status, count]),
  );
  return {
    rps: result.requests.total / result.duration,
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    unexpected,
  };
}

/** Requests that did not come back as a 200: errors (timeouts among them) and other statuses. */
export function failures(result: LoadResult): number {
  return result.errors + Object.values(result.unexpected).reduce((a, b) => a + b, 0);
}
