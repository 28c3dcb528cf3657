import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { createLicenseRepo } from "../server/store/license-repo.ts";
import { openDatabase } from "../server/store/open-database.ts";
import { licensePaths, searchPath } from "./api-paths.ts";
import { createBenchKey } from "./bench-key.ts";
import { BIG_STATE, ensureBenchDb } from "./build-bench-db.ts";
import { BARE_PATHS, startBareTwin } from "./bare-twin.ts";
import { startChild } from "./child-server.ts";
import { httpLatency, naiveLatency, rankedLatency, type ClassLatency } from "./latency.ts";
import { EXAMPLE_QUERIES } from "./example-queries.ts";
import { createNaiveSearch, liveRowsTable } from "./naive-search.ts";
import { rssMb, sampleRss } from "./process-memory.ts";
import { queryMixOf } from "./query-mix.ts";
import type { Percentiles } from "./percentiles.ts";
import { npmCommand, runContext, writeResultsSection } from "./results-file.ts";
import { examplesTable, latencyTable, SPEED_TARGET, throughputTable } from "./speed-tables.ts";
import { verdict } from "./table.ts";
import { interleavedRounds, type RoundsResult } from "./throughput-rounds.ts";

const { values } = parseArgs({
  options: {
    rebuild: { type: "boolean", default: false },
    iterations: { type: "string", default: "500" },
    "http-iterations": { type: "string", default: "300" },
    "naive-iterations": { type: "string", default: "10" },
    seconds: { type: "string", default: "10" },
    rounds: { type: "string", default: "3" },
  },
});
const runs = { warmup: 50, iterations: Number(values.iterations) };
const httpRuns = { warmup: 20, iterations: Number(values["http-iterations"]) };
const naiveRuns = { warmup: 1, iterations: Number(values["naive-iterations"]) };
const load = { seconds: Number(values.seconds), rounds: Number(values.rounds) };
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
for (const query of EXAMPLE_QUERIES)
  exampleLatency.push((await rankedLatency(repo, state, [query], runs)).get(query.label)!);
const licenses = licensePaths(db, state);
db.close();

// 3. Over HTTP: the real server and a bare node:http server, each in a child process of its own.
const searches = mix.map((query) => searchPath(state, query));
const { key, headers, revoke } = createBenchKey(built.file, "npm run bench");
const api = await startChild("./api-server.ts", [built.file]);
let http: ClassLatency, rounds: RoundsResult, rss: { warm: number; peak: number };
try {
  console.log(`HTTP latency: ${httpRuns.iterations} requests per class`);
  http = await httpLatency(api.url, key, state, mix, httpRuns);
  const bare = await startBareTwin(api.url, headers, { license: licenses[0]!, search: searches[0]! });
  try {
    console.log(
      `throughput: autocannon, 50 connections, ${load.seconds} s per target, ${load.rounds} interleaved rounds`,
    );
    const warm = rssMb(api.pid);
    const sampler = sampleRss(api.pid);
    rounds = await interleavedRounds(
      {
        bare: {
          license: { url: bare.url, paths: BARE_PATHS.license },
          search: { url: bare.url, paths: BARE_PATHS.search },
        },
        api: { license: { url: api.url, paths: licenses }, search: { url: api.url, paths: searches } },
      },
      { headers, ...load },
    );
    rss = { warm, peak: sampler.stop().peak };
  } finally {
    await bare.stop();
  }
} finally {
  await api.stop();
  revoke();
}

// 4. The figures.
const build = built.bigBuildSeconds;
const summary = [
  `- Data: ${state} 1,000,000 synthetic records (generateLicenses, seed 1) plus ma and nj at 50,000, written by replaceState into \`bench/.data/bench.sqlite\`.`,
  `- Build of the 1,000,000-record state: ${build === null ? "unknown" : `${build.toFixed(1)} s`}${built.reused ? ` (built ${built.builtAt}, reused by this run)` : " (built by this run)"}; target <= 60 s: ${verdict(build !== null && build <= SPEED_TARGET.buildSeconds)}.`,
  `- Ranked search p99 <= 5 ms in every class: ${verdict([...ranked.values()].every((r) => r.p99 <= SPEED_TARGET.p99Ms))}.`,
  `- API resident memory (VmRSS): ${rss.warm.toFixed(0)} MB after the HTTP latency runs, peak ${rss.peak.toFixed(0)} MB under load; target <= 300 MB: ${verdict(rss.peak <= SPEED_TARGET.rssMb)}.`,
  `- Latency in ms. Ranked: \`createLicenseRepo(db).search\` in-process, ${runs.iterations} runs per class after ${runs.warmup} warm-up runs. HTTP: \`/v2/search\`, one request at a time on a kept-alive connection, ${httpRuns.iterations} per class. Naive: \`LIKE '%q%'\` on the normalized keys, \`ORDER BY active DESC, length(key), license LIMIT 10\`, ${naiveRuns.iterations} runs per class (so its p99 is its slowest run).`,
  `- Throughput: autocannon as a library in the bench process, 50 connections, pipelining 1, ${load.seconds} s per target after 2 s warm-up; ${load.rounds} rounds in which the bare server and the API take turns, best round of each reported. The API runs as \`npm run api\` does (startServer, request log on, discarded) with its per-key rate limit raised out of reach; the bare node:http server answers the bytes of a real /v2/license or /v2/search response. Client and servers share the machine's ${availableParallelism()} cores.`,
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
  "### Throughput",
  throughputTable(rounds, names),
].join("\n\n");
console.log(`\n${report}\n`);
writeResultsSection("Speed at 1,000,000 records (issue 4): npm run bench", report);
console.log("written to bench/RESULTS.md");
