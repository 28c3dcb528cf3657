import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { openDatabase } from "../server/store/open-database.ts";
import { licensePaths, searchPath } from "./api-paths.ts";
import { createBenchKey } from "./bench-key.ts";
import { BIG_STATE, ensureBenchDb } from "./build-bench-db.ts";
import { BARE_PATHS, startBareTwin } from "./bare-twin.ts";
import { startChild, type ChildServer } from "./child-server.ts";
import type { Layers } from "./layered-server.ts";
import { cpuMicros } from "./process-cpu.ts";
import { queryMixOf } from "./query-mix.ts";
import { npmCommand, runContext, writeResultsSection } from "./results-file.ts";
import { BUDGETS, CPU_BUDGET_CLASSES } from "./budgets.ts";
import { markdownTable, verdict } from "./table.ts";
import { applyLoad, failures } from "./throughput.ts";

// Where the API's server CPU goes: the same load on the API built layer by layer, the store's
// answers served from memory until the last row, which is the API as `npm run api` serves it.
const { values } = parseArgs({
  options: { seconds: { type: "string", default: "5" }, rounds: { type: "string", default: "3" } },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const context = runContext(npmCommand("bench:layers"));
const state = BIG_STATE;

const built = await ensureBenchDb();
const db = openDatabase(built.file);
const mix = queryMixOf(db, state, built.builtAt ?? "unknown");
const paths = {
  license: licensePaths(db, state),
  search: mix.map((query) => searchPath(state, query)),
  // Like for like with the budget: the classes the mix had when it was set.
  searchBefore: mix.filter((query) => CPU_BUDGET_CLASSES.has(query.label)).map((query) => searchPath(state, query)),
};
db.close();
type Endpoint = keyof typeof paths;
const endpoints = Object.keys(paths) as Endpoint[];

const ROWS: { name: string; start: () => Promise<ChildServer> }[] = [
  { name: "Fastify and the two routes, answers from memory", start: () => layered("fastify") },
  { name: "+ request id, API key check, parameter checks (buildApp)", start: () => layered("api") },
  { name: "+ rate limit", start: () => layered("api+limit") },
  { name: "+ request log", start: () => layered("api+limit+log") },
  {
    name: "+ documents read from SQLite: license lookups; search ranked once per query, its documents read each time",
    start: () => layered("api+limit+log+docs"),
  },
  {
    name: "+ search ranking: the API as `npm run api` serves it",
    start: () => startChild("./api-server.ts", [built.file]),
  },
];
function layered(layers: Layers) {
  return startChild("./layered-server.ts", [built.file, layers]);
}

const { headers, revoke } = await createBenchKey(built.file, "npm run bench:layers");
const servers: ChildServer[] = [];
const results = ROWS.map(() => ({ license: [] as Round[], search: [] as Round[], searchBefore: [] as Round[] }));
const bareResults = { license: [] as Round[], search: [] as Round[], searchBefore: [] as Round[] };
interface Round {
  rps: number;
  cpuPerRequest: number;
  failed: number;
}
try {
  for (const row of ROWS) servers.push(await row.start());
  const api = servers.at(-1)!;
  const bare = await startBareTwin(api.url, headers, { license: paths.license[0]!, search: paths.search[0]! });
  servers.push(bare);

  console.log(
    `${ROWS.length} builds of the API and a bare node:http server; ${seconds} s per target, ${rounds} rounds`,
  );
  for (const endpoint of endpoints) {
    await applyLoad({ url: bare.url, paths: BARE_PATHS[endpoint], headers, seconds: 1 });
    for (const [i] of ROWS.entries())
      await applyLoad({ url: servers[i]!.url, paths: paths[endpoint], headers, seconds: 2 });
  }
  for (let round = 1; round <= rounds; round++) {
    for (const endpoint of endpoints) {
      const b = await measure(bare, BARE_PATHS[endpoint]);
      bareResults[endpoint].push(b);
      console.log(`  round ${round} ${endpoint.padEnd(7)} bare: ${b.cpuPerRequest.toFixed(0)} us CPU/request`);
      for (const [i, row] of ROWS.entries()) {
        const r = await measure(servers[i]!, paths[endpoint]);
        results[i]![endpoint].push(r);
        console.log(
          `  round ${round} ${endpoint.padEnd(7)} ${row.name}: ${Math.round(r.rps)} req/s, ${r.cpuPerRequest.toFixed(0)} us CPU/request`,
        );
      }
    }
  }
} finally {
  await Promise.all(servers.map((server) => server.stop()));
  await revoke();
}

/** One round of load on a server: its own CPU time over the round, per request. */
async function measure(server: ChildServer, serverPaths: string[]): Promise<Round> {
  const cpuBefore = cpuMicros(server.pid);
  const load = await applyLoad({ url: server.url, paths: serverPaths, headers, seconds });
  return { rps: load.rps, cpuPerRequest: (cpuMicros(server.pid) - cpuBefore) / load.requests, failed: failures(load) };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const cpuOf = (runs: Round[]) => median(runs.map((r) => r.cpuPerRequest));
const bareCpu = (endpoint: Endpoint) => cpuOf(bareResults[endpoint]);
/** The API as served (the last row), as a multiple of the bare server's CPU per request. */
const timesBare = (endpoint: Endpoint) => cpuOf(results.at(-1)![endpoint]) / bareCpu(endpoint);
const table = (endpoint: Endpoint) => {
  let previous: number | null = null;
  const rows = ROWS.map((row, i) => {
    const runs = results[i]![endpoint];
    const cpu = cpuOf(runs);
    const added = previous === null ? "" : `${cpu - previous >= 0 ? "+" : ""}${(cpu - previous).toFixed(0)}`;
    previous = cpu;
    return [
      row.name,
      Math.round(Math.max(...runs.map((r) => r.rps))),
      cpu.toFixed(0),
      (cpu / bareCpu(endpoint)).toFixed(2),
      added,
      runs.reduce((n, r) => n + r.failed, 0),
    ];
  });
  return markdownTable(
    [
      "API built with",
      "req/s (best round)",
      "server CPU us/request (median)",
      "x bare",
      "added by the layer",
      "errors + non-200",
    ],
    [
      [
        "bare node:http, the same bytes",
        Math.round(Math.max(...bareResults[endpoint].map((r) => r.rps))),
        bareCpu(endpoint).toFixed(0),
        "1.00",
        "",
        0,
      ],
      ...rows,
    ],
  );
};
const cpuLine = (endpoint: Endpoint, name: string) =>
  `- ${name}: ${cpuOf(results.at(-1)![endpoint]).toFixed(0)} us of server CPU per request, ${timesBare(endpoint).toFixed(2)} x the bare server's ${bareCpu(endpoint).toFixed(0)} us`;
const budgetLine = (endpoint: keyof typeof BUDGETS.cpuTimesBare, name: string) =>
  `${cpuLine(endpoint, name)}; budget <= ${BUDGETS.cpuTimesBare[endpoint].toFixed(2)} x: ${verdict(timesBare(endpoint) <= BUDGETS.cpuTimesBare[endpoint])}.`;
const summary = [
  `- Data: the \`npm run bench\` database (${state} 1,000,000 records); the same paths as its load phase (${paths.license.length} license numbers in turn; the query mix in turn).`,
  `- Each row adds one layer of the API to the row above (bench/layered-server.ts). Until the documents row the store's answers are read once and then served from memory, so those rows show what the layers cost without the data. The documents row reads every answer's documents from SQLite as the API does (for /v2/license that is the whole lookup) but ranks each search query only once. The last row is the API as served, request log on and discarded, rate limit out of reach.`,
  `- autocannon as a library in this process, 50 connections, pipelining 1, ${seconds} s per target per round, ${rounds} rounds, servers taking turns; all servers run at once in child processes, idle but for the one loaded. Server CPU is the child's user and system time over the round (/proc/<pid>/stat, all threads), per request, median of the rounds: the load generator shares the machine's ${availableParallelism()} cores, so req/s is a figure, not a target, while each server's own CPU time is its own. The bare node:http server answers the same bytes; it measures the machine's speed in this run.`,
  budgetLine("license", "/v2/license"),
  budgetLine("searchBefore", `/v2/search, the mix's classes of 2026-11-22 (${[...CPU_BUDGET_CLASSES].join(", ")})`),
  `${cpuLine("search", "/v2/search, the whole mix (typos, three words and initials too)")}: a figure, not a budget.`,
].join("\n");
const report = [
  context,
  summary,
  "### /v2/license",
  table("license"),
  "### /v2/search, the classes of 2026-11-22",
  table("searchBefore"),
  "### /v2/search, the whole mix",
  table("search"),
].join("\n\n");
console.log(`\n${report}\n`);
writeResultsSection("Server CPU per request, layer by layer: npm run bench:layers", report);
console.log("written to bench/RESULTS.md");
