import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { join } from "node:path";
import { startCluster, type Cluster } from "../cluster/cluster.ts";
import { startNode, type Node } from "../cluster/nodes.ts";
import { freePort } from "../server/testing/free-port.ts";
import { openStateDb } from "../server/db/state-db.ts";
import { openDatabase } from "../server/store/open-database.ts";
import { ALL_STATES, createKeyRepo } from "../server/service/key-repo.ts";
import { licensePath } from "./api-paths.ts";
import { liveRowsTable } from "./naive-search.ts";
import { cpuMicros } from "./process-cpu.ts";
import { percentiles } from "./percentiles.ts";
import { npmCommand, runContext, writeResultsSection } from "./results-file.ts";
import { markdownTable } from "./table.ts";
import { applyLoad, applyPacedLoad, failures } from "./throughput.ts";

/**
 * What several nodes cost and give (issue 31): a service node with its keys in PostgreSQL and its limit in Redis
 * against today's single node (keys and limit in its own file and memory), per request; and the throughput of one,
 * two and three service nodes behind HAProxy on this machine.
 */
const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "8" },
    runs: { type: "string", default: "6" },
    "per-state": { type: "string", default: "20000" },
  },
});
const seconds = Number(values.duration);
const perState = Number(values["per-state"]);
const runCount = Number(values.runs);
const context = runContext(npmCommand("bench:cluster"));
const API = "dist-server/cli/api.js";
// Out of reach, but counted: every request still passes through the limiter and its store.
const LIMIT = ["--rate-limit", "1000000", "--burst", "1000000"];
const CONNECTIONS = 10;
/**
 * Per request, the three setups at once, each sent a steady, evenly spaced rate (together about what the cores leave
 * the nodes beside the load generator, PostgreSQL and Redis, well under their most): measured by turns, the same
 * setup's p99 moved from 2.6 to 22.5 ms from one 8-second run to the next (the machine's stalls, not the node's),
 * more than any difference between setups; at once, a stall falls on all three alike. At saturation the load
 * generator and the nodes fight for 2 cores; in bursts (autocannon's own rate), a p99 is the burst's queue.
 */
const RATE = { "/v2/license": 700, "/v2/search": 170 } as const;

const cluster: Cluster = await startCluster({
  serviceNodes: 3,
  appNodes: 0,
  perState,
  rateLimit: { perSecond: 1e6, burst: 1e6 },
});
let single: Node | null = null;
try {
  const source = cluster.importFile(1);
  const db = openDatabase(source);
  const table = liveRowsTable(db, "ny");
  const numbers = db.prepare(`SELECT license FROM ${table} WHERE id % 97 = 1 LIMIT 200`).pluck().all() as string[];
  const names = db.prepare(`SELECT business_key FROM ${table} WHERE id % 89 = 1 LIMIT 200`).pluck().all() as string[];
  db.close();
  const licensePaths = numbers.map((n) => licensePath("ny", n));
  const searchPaths = names.map(
    (name) => `/v2/search?${new URLSearchParams({ state: "ny", name: name.split(" ").slice(0, 2).join(" ") })}`,
  );

  // Today's single node: the same data in its own file, its key in that file, its limit in memory.
  const singleDb = join(cluster.dir, "single.sqlite");
  const { copyFileSync } = await import("node:fs");
  copyFileSync(source, singleDb);
  const fileDb = openDatabase(singleDb);
  const singleKey = (await createKeyRepo(openStateDb({ sqlite: fileDb })).create([ALL_STATES], "bench:cluster")).key;
  fileDb.close();
  const port = await freePort();
  single = await startNode(
    "single",
    API,
    ["--db", singleDb, "--port", String(port), "--quiet", ...LIMIT],
    { DATABASE_URL: "", REDIS_URL: "" },
    { port },
  );
  const sharedKey = (await cluster.newKey()).key;
  // A node on PostgreSQL's keys and snapshot but counting in its own memory: what Redis costs, apart.
  const localPort = await freePort();
  const localLimit = await startNode(
    "keys-only",
    API,
    ["--db", join(cluster.dir, "keys-only", "licenses.sqlite"), "--port", String(localPort), "--quiet", ...LIMIT],
    { DATABASE_URL: cluster.databaseUrl, REDIS_URL: "" },
    { port: localPort, waitPath: "/readyz" },
  );

  async function measure(node: Node, key: string, paths: string[], rate: number) {
    const headers = { authorization: `Bearer ${key}` };
    await applyPacedLoad({ url: node.url, paths, headers, seconds: 2, connections: CONNECTIONS, rate });
    const before = cpuMicros(node.process.pid!);
    const result = await applyPacedLoad({ url: node.url, paths, headers, seconds, connections: CONNECTIONS, rate });
    return { result, cpu: cpuMicros(node.process.pid!) - before };
  }
  type Run = Awaited<ReturnType<typeof measure>>;
  /** A setup's runs taken together: CPU per request over all their requests, percentiles over all their answers. */
  const pooled = (runs: Run[]) => {
    const requests = runs.reduce((sum, r) => sum + r.result.requests, 0);
    const latency = percentiles(runs.flatMap((r) => r.result.latencies));
    return {
      rps: runs.reduce((sum, r) => sum + r.result.rps, 0) / runs.length,
      cpu: runs.reduce((sum, r) => sum + r.cpu, 0) / requests,
      p50: latency.p50,
      p99: latency.p99,
      runP99s: runs.map((r) => r.result.p99),
      failed: runs.reduce((sum, r) => sum + failures(r.result), 0),
    };
  };
  const rows: (string | number)[][] = [];
  const compare: Record<string, { today: number; shared: number; p99today: number; p99shared: number }> = {};
  for (const [route, paths] of [
    ["/v2/license", licensePaths],
    ["/v2/search", searchPaths],
  ] as const) {
    const [today, keysOnly, shared]: [Run[], Run[], Run[]] = [[], [], []];
    for (let run = 0; run < runCount; run++) {
      const runs = await Promise.all([
        measure(single, singleKey, paths, RATE[route]),
        measure(localLimit, sharedKey, paths, RATE[route]),
        measure(cluster.services[0]!, sharedKey, paths, RATE[route]),
      ]);
      today.push(runs[0]);
      keysOnly.push(runs[1]);
      shared.push(runs[2]);
    }
    const [t, s] = [pooled(today), pooled(shared)];
    compare[route] = { today: t.cpu, shared: s.cpu, p99today: t.p99, p99shared: s.p99 };
    for (const [name, runs] of [
      ["one node: keys in its file, limit in memory (today)", today],
      ["keys and snapshot from PostgreSQL, limit in memory", keysOnly],
      ["keys and snapshot from PostgreSQL, limit in Redis", shared],
    ] as const) {
      const p = pooled(runs);
      rows.push([
        route,
        name,
        Math.round(p.rps),
        p.cpu.toFixed(0),
        p.p50.toFixed(2),
        p.p99.toFixed(2),
        p.runP99s.map((ms) => ms.toFixed(1)).join(" "),
        p.failed,
      ]);
    }
  }
  await single.stop();
  single = null;
  await localLimit.stop();

  // Throughput behind the balancer: nodes beyond n set to maintenance, the load through HAProxy.
  const throughput: (string | number)[][] = [];
  const mixed = licensePaths.flatMap((p, i) => [p, searchPaths[i % searchPaths.length]!]);
  for (let n = 1; n <= cluster.services.length; n++) {
    for (const [i, node] of cluster.services.entries()) {
      await cluster.haproxy.admin(`${i < n ? "enable" : "disable"} server service/${node.name}`);
    }
    await sleep(500);
    const pids = [cluster.haproxy.process.pid!, ...cluster.services.map((s) => s.process.pid!)];
    const cpuBefore = pids.map(cpuMicros);
    const own = process.cpuUsage();
    const result = await applyLoad({
      url: cluster.serviceUrl,
      paths: mixed,
      headers: { authorization: `Bearer ${sharedKey}` },
      seconds,
      connections: 50,
    });
    const cpuAfter = pids.map(cpuMicros);
    const used = (i: number) => (cpuAfter[i]! - cpuBefore[i]!) / 1e6 / seconds;
    const loader = process.cpuUsage(own);
    throughput.push([
      n,
      Math.round(result.rps),
      result.p50.toFixed(1),
      result.p99.toFixed(1),
      failures(result),
      used(0).toFixed(2),
      cluster.services.map((_, i) => used(i + 1).toFixed(2)).join(" / "),
      ((loader.user + loader.system) / 1e6 / seconds).toFixed(2),
    ]);
  }

  const within = (route: string) => {
    const c = compare[route]!;
    const cpu = c.shared / c.today - 1;
    const p99 = c.p99shared / c.p99today - 1;
    return `${route}: CPU per request ${sign(cpu)}, p99 ${sign(p99)}`;
  };
  const report = [
    context,
    "",
    `- Data: demo licenses, ny and ma ${perState.toLocaleString("en-US")} each, published as one snapshot; every node serves it from its own SQLite file.`,
    `- Per request: the three setups at once, each sent ${RATE["/v2/license"]} lookups or ${RATE["/v2/search"]} searches a second, evenly spaced whatever the answers do, over at most ${CONNECTIONS} kept-alive connections, each answer's time from its sending (bench/throughput.ts applyPacedLoad). At once, because a stall of the machine's falls on all three alike: measured by turns, the same setup's p99 moved from 2.6 to 22.5 ms from one run to the next, more than any difference between setups. Not autocannon's own rate, which sends each second's quota at once at the top of the second, so that a p99 measured in it is that burst's queue. ${runCount} runs of ${seconds} s, each after a 2 s warm-up, taken together (CPU over all their requests, percentiles over all their answers); the limit on but out of reach, so every request passes through it. CPU is the node process's own (user + system, /proc).`,
    `- Against today's single node (target: within 10%): ${within("/v2/license")}; ${within("/v2/search")}.`,
    "",
    markdownTable(
      ["route", "node", "req/s", "CPU µs/request", "p50 ms", "p99 ms", "each run's p99 ms", "failed"],
      rows,
    ),
    "",
    `- Throughput: autocannon, 50 connections, ${seconds} s through HAProxy 2.6 (round robin, /readyz checks), licenses and searches in turn; nodes beyond the first n put in maintenance. CPU in cores (of 2) used by each process over the run.`,
    "",
    markdownTable(
      ["service nodes", "req/s", "p50 ms", "p99 ms", "failed", "HAProxy cores", "nodes' cores", "load generator cores"],
      throughput,
    ),
  ].join("\n");
  console.log(`\n${report}\n`);
  writeResultsSection("Several nodes (issue 31): npm run bench:cluster", report);
  console.log("written to bench/RESULTS.md");
} finally {
  await single?.stop();
  await cluster.stop();
}

function sign(share: number): string {
  return `${share >= 0 ? "+" : ""}${(share * 100).toFixed(1)}%`;
}
