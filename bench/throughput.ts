import autocannon from "autocannon";
import { Agent, request } from "node:http";
import { percentiles } from "./percentiles.ts";

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
  /** Paced: each 200's own time in ms, to pool over several runs; empty at saturation. */
  latencies: number[];
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
    latencies: [],
  };
}

/**
 * `rate` requests a second, evenly spaced, whatever the answers do (an open loop, as clerks' requests arrive), over
 * at most `connections` kept-alive connections; each answer's time from its request's sending, to the microsecond.
 * Not autocannon: its rate sends each second's quota as fast as it can at the top of the second, then waits, so its
 * "500 a second" is a burst at saturation, and a p99 measured in it is that burst's queue.
 */
export async function applyPacedLoad({
  url,
  paths,
  headers = {},
  seconds,
  connections = 10,
  rate,
}: LoadOptions & { rate: number }): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const total = Math.round(seconds * rate);
  const latencies: number[] = [];
  const unexpected: Record<string, number> = {};
  let [sent, done, errors, timeouts] = [0, 0, 0, 0];
  const started = performance.now();
  await new Promise<void>((resolve) => {
    const finish = () => ++done === total && resolve();
    const send = (path: string) => {
      const at = performance.now();
      const req = request(new URL(path, url), { agent, headers, timeout: 10_000 }, (res) => {
        res.resume();
        res.on("end", () => {
          if (res.statusCode === 200) latencies.push(performance.now() - at);
          else unexpected[res.statusCode!] = (unexpected[res.statusCode!] ?? 0) + 1;
          finish();
        });
      });
      req.on("timeout", () => (timeouts++, req.destroy()));
      req.on("error", () => (errors++, finish()));
      req.end();
    };
    // Node's timers fire every millisecond at best: each tick sends what is due by then.
    const tick = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - started) * rate) / 1000));
      while (sent < due) send(paths[sent++ % paths.length]!);
      if (sent === total) clearInterval(tick);
    }, 1);
  });
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  const exact = percentiles(latencies);
  return {
    rps: done / elapsed,
    requests: done,
    p50: exact.p50,
    p99: exact.p99,
    errors,
    timeouts,
    unexpected,
    latencies,
  };
}

/** Requests that did not come back as a 200: errors (timeouts among them) and other statuses. */
export function failures(result: LoadResult): number {
  return result.errors + Object.values(result.unexpected).reduce((a, b) => a + b, 0);
}
