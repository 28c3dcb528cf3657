import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { createLicenseRepo } from "../server/store/license-repo.ts";
import { openDatabase } from "../server/store/open-database.ts";
import { licensePaths, searchPath } from "./api-paths.ts";
import { createBenchKey } from "./bench-key.ts";
import { BIG_STATE, ensureBenchDb } from "./build-bench-db.ts";
import { startChild } from "./child-server.ts";
import { httpLatency, naiveLatency, rankedLatency, typedLatency, typedQueries, type ClassLatency } from "./latency.ts";
import { EXAMPLE_QUERIES } from "./example-queries.ts";
import { createNaiveSearch, liveRowsTable } from "./naive-search.ts";
import { rssMb, sampleRss } from "./process-memory.ts";
import { queryMixOf } from "./query-mix.ts";
import { percentiles, type Percentiles } from "./percentiles.ts";
import { npmCommand, runContext, writeResultsSection } from "./results-file.ts";
import { BUDGETS } from "./budgets.ts";
import { examplesTable, latencyTable, loadTable, typedTable } from "./speed-tables.ts";
import { ms, verdict } from "./table.ts";
import { applyLoad, type LoadResult } from "./throughput.ts";

const { values } = parseArgs({
  options: {
    rebuild: { type: "boolean", default: false },
    iterations: { type: "string", default: "500" },
    "http-iterations": { type: "string", default: "300" },
    "naive-iterations": { type: "string", default: "10" },
    "typed-iterations": { type: "string", default: "30" },
    seconds: { type: "string", default: "10" },
  },
});
const runs = { warmup: 50, iterations: Number(values.iterations) };
const httpRuns = { warmup: 20, iterations: Number(values["http-iterations"]) };
const naiveRuns = { warmup: 1, iterations: Number(values["naive-iterations"]) };
const typedRuns = { warmup: 2, iterations: Number(values["typed-iterations"]) };
const load = { seconds: Number(values.seconds) };
const context = runContext(npmCommand("bench"));
const runStarted = performance.now();
const state = BIG_STATE;

// 1. The data, and a query mix chosen from it.
const built = await ensureBenchDb({ rebuild: values.rebuild });
const db = openDatabase(built.file);
const mix = queryMixOf(db, state, built.builtAt ?? "unknown");
console.log(`\nQuery mix (${state}, chosen from the data):`);
for (const { label, by, q } of mix) console.log(`  ${label.padEnd(16)} ${by}=${JSON.stringify(q)}`);

// 2. In-process: the store's ranked search, and the naive LIKE over the same rows.
const repo = createLicenseRepo(db);
const hits = new Map(mix.map(({ label, by, q }) => [label, repo.search({ state, by, q }).length]));
console.log(`\nranked search in-process: ${runs.iterations} runs per class after ${runs.warmup} warm-up runs`);
const ranked = await rankedLatency(repo, state, mix, runs);
console.log(`naive LIKE baseline: ${naiveRuns.iterations} runs per class`);
const naive = await naiveLatency(createNaiveSearch(db, liveRowsTable(db, state)), mix, naiveRuns);
console.log(`example queries in-process: ${runs.iterations} runs each`);
const exampleHits = EXAMPLE_QUERIES.map(({ by, q }) => repo.search({ state, by, q }).length);
const exampleLatency: Percentiles[] = [];
for (const query of EXAMPLE_QUERIES) {
  const timed = query.runs ? { warmup: 2, iterations: query.runs } : runs;
  exampleLatency.push((await rankedLatency(repo, state, [query], timed)).get(query.label)!);
}
const typed = typedQueries(mix);
console.log(`as typed: every prefix of ${typed.length} queries of the mix, ${typedRuns.iterations} rounds`);
const typedDurations = await typedLatency(repo, state, typed, typedRuns);
const typedAll = percentiles([...typedDurations.flatMap((prefixes) => [...prefixes.values()].flat())]);
const licenses = licensePaths(db, state);
db.close();

// 3. Over HTTP: the real server and a bare node:http server, each in a child process of its own.
const searches = mix.map((query) => searchPath(state, query));
const { key, headers, revoke } = await createBenchKey(built.file, "npm run bench");
const api = await startChild("./api-server.ts", [built.file]);
let http: ClassLatency, loaded: LoadResult[], rss: { warm: number; peak: number };
try {
  console.log(`HTTP latency: ${httpRuns.iterations} requests per class`);
  http = await httpLatency(api.url, key, state, mix, httpRuns);
  console.log(`memory under load: autocannon, 50 connections, ${load.seconds} s per operation`);
  const warm = rssMb(api.pid);
  const sampler = sampleRss(api.pid);
  loaded = [
    await applyLoad({ url: api.url, paths: licenses, headers, seconds: load.seconds }),
    await applyLoad({ url: api.url, paths: searches, headers, seconds: load.seconds }),
  ];
  rss = { warm, peak: sampler.stop().peak };
} finally {
  await api.stop();
  await revoke();
}

// 4. The figures.
const build = built.bigBuildSeconds;
const summary = [
  `- Data: ${state} 1,000,000 synthetic records (generateLicenses, seed 1) plus ma and nj at 50,000, written by replaceState into \`bench/.data/bench.sqlite\`.`,
  `- Build of the 1,000,000-record state: ${build === null ? "unknown" : `${build.toFixed(1)} s`}${built.reused ? ` (built ${built.builtAt}, reused by this run)` : " (built by this run)"}; budget <= ${BUDGETS.buildSeconds} s: ${verdict(build !== null && build <= BUDGETS.buildSeconds)}.`,
  `- Ranked search p99 <= ${BUDGETS.rankedP99Ms} ms in every class: ${verdict([...ranked.values()].every((r) => r.p99 <= BUDGETS.rankedP99Ms))}.`,
  `- As typed, every prefix of the mix's queries together (below): p99 ${ms(typedAll.p99)} ms; within the classes' ${BUDGETS.rankedP99Ms} ms: ${verdict(typedAll.p99 <= BUDGETS.rankedP99Ms)}.`,
  `- HTTP p99 <= ${BUDGETS.httpP99Ms} ms in every class: ${verdict([...http.values()].every((r) => r.p99 <= BUDGETS.httpP99Ms))}.`,
  `- API resident memory (VmRSS): ${rss.warm.toFixed(0)} MB after the HTTP latency runs, peak ${rss.peak.toFixed(0)} MB under load; budget <= ${BUDGETS.rssMb} MB: ${verdict(rss.peak <= BUDGETS.rssMb)}.`,
  "- Server CPU per request is `npm run bench:layers`'s budget; req/s at saturation below is a figure, not a target (the load generator shares the cores).",
  `- Latency in ms. Ranked: \`createLicenseRepo(db).search\` in-process, ${runs.iterations} runs per class after ${runs.warmup} warm-up runs. HTTP: \`/v2/search\`, one request at a time on a kept-alive connection, ${httpRuns.iterations} per class. Naive: \`LIKE '%q%'\` on the normalized keys, \`ORDER BY active DESC, length(key), license LIMIT 10\`, ${naiveRuns.iterations} runs per class (so its p99 is its slowest run).`,
  `- As typed: each query of the mix of 3 characters or more, every prefix of it the app searches (2 characters or more, none ending in a space), \`createLicenseRepo(db).searchWithProvenance\` in-process as the app asks at each keystroke; ${typedRuns.iterations} rounds after ${typedRuns.warmup} warm-up rounds, each typing every query in turn, so a prefix runs after the one before it.`,
  `- Under load: autocannon as a library in the bench process, 50 connections, pipelining 1, ${load.seconds} s per operation, against the API as \`npm run api\` runs it (startServer, request log on, discarded) with its per-key rate limit raised out of reach. Client and server share the machine's ${availableParallelism()} cores.`,
  `- Whole run: ${((performance.now() - runStarted) / 1000).toFixed(0)} s.`,
].join("\n");
const names = { license: `/v2/license (${licenses.length} numbers in turn)`, search: "/v2/search (the mix in turn)" };
const report = [
  context,
  summary,
  `### Latency per query class (${state}, 1,000,000 records)`,
  latencyTable(mix, hits, { ranked, http, naive }),
  `### Example queries, in-process (${state}; not in the mix the targets are about)`,
  examplesTable(EXAMPLE_QUERIES, exampleHits, exampleLatency),
  `### As typed: every prefix of the mix's queries, in-process (${state})`,
  typedTable(typed, typedDurations),
  "### Under load (figures for the memory peak above)",
  loadTable([
    { name: names.license, result: loaded[0]! },
    { name: names.search, result: loaded[1]! },
  ]),
].join("\n\n");
console.log(`\n${report}\n`);
writeResultsSection("Search speed and memory at 1,000,000 records: npm run bench", report);
console.log("written to bench/RESULTS.md");
