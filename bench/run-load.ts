import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { openDatabase } from "../server/store/open-database.ts";
import { licensePaths, searchPath } from "./api-paths.ts";
import { createBenchKey } from "./bench-key.ts";
import { BIG_STATE, ensureBenchDb } from "./build-bench-db.ts";
import { startChild } from "./child-server.ts";
import { rssMb, sampleRss } from "./process-memory.ts";
import { queryMixOf } from "./query-mix.ts";
import { npmCommand, runContext, writeResultsSection } from "./results-file.ts";
import { markdownTable, pct, verdict } from "./table.ts";
import { applyLoad, failures, type LoadResult } from "./throughput.ts";

const MAX_RSS_GROWTH = 0.2;
const CONNECTIONS = 25; // per endpoint: 50 in all, both endpoints at once

const { values } = parseArgs({ options: { duration: { type: "string", default: "60" } } });
const seconds = Number(values.duration);
if (!Number.isInteger(seconds) || seconds < 1)
  throw new Error(`--duration must be a whole number of seconds, not ${values.duration}`);
const warmupSeconds = Math.min(5, seconds);
const context = runContext(npmCommand("bench:load"));
const state = BIG_STATE;

const built = await ensureBenchDb();
const db = openDatabase(built.file);
const searches = queryMixOf(db, state, built.builtAt ?? "unknown").map((query) => searchPath(state, query));
const licenses = licensePaths(db, state);
db.close();

const { headers, revoke } = await createBenchKey(built.file, "npm run bench:load");
const api = await startChild("./api-server.ts", [built.file]);
let search: LoadResult, license: LoadResult, memory, exitCode;
try {
  const started = rssMb(api.pid);
  console.log(
    `warm-up ${warmupSeconds} s, then ${seconds} s of /v2/search and /v2/license at once, ${CONNECTIONS} connections each`,
  );
  await applyLoad({ url: api.url, paths: [...licenses, ...searches], headers, seconds: warmupSeconds });
  const before = rssMb(api.pid);
  const sampler = sampleRss(api.pid);
  [search, license] = await Promise.all([
    applyLoad({ url: api.url, paths: searches, headers, seconds, connections: CONNECTIONS }),
    applyLoad({ url: api.url, paths: licenses, headers, seconds, connections: CONNECTIONS }),
  ]);
  const { peak } = sampler.stop();
  await sleep(1000);
  memory = { started, before, peak, after: rssMb(api.pid) };
} finally {
  exitCode = await api.stop();
  await revoke();
}

const row = (name: string, r: LoadResult) => [
  name,
  r.requests,
  Math.round(r.rps),
  r.p50,
  r.p99,
  r.errors,
  r.timeouts,
  Object.entries(r.unexpected)
    .map(([status, n]) => `${status}: ${n}`)
    .join(", ") || "0",
];
const table = markdownTable(
  ["endpoint", "requests", "req/s", "p50 ms", "p99 ms", "errors", "timeouts", "non-200 statuses"],
  [
    row(`/v2/search (the bench mix in turn)`, search!),
    row(`/v2/license (${licenses.length} numbers in turn)`, license!),
  ],
);
const growth = memory.after / memory.before - 1;
const clean = failures(search!) + failures(license!) === 0;
const summary = [
  `- Load: autocannon as a library, ${seconds} s with /v2/search and /v2/license at once (${CONNECTIONS} connections each, pipelining 1) after a ${warmupSeconds} s mixed warm-up, against the real server (startServer in a child process, request log on, per-key rate limit raised out of reach) over the bench database (ny 1,000,000 records).`,
  `- Errors, timeouts and non-200 statuses: ${failures(search!) + failures(license!)}; target 0: ${verdict(clean)}.`,
  `- API resident memory (VmRSS): ${mb(memory.started)} at start, ${mb(memory.before)} after warm-up (before), peak ${mb(memory.peak)}, ${mb(memory.after)} 1 s after the load (after).`,
  `- Growth from before to after: ${pct(growth)}; target <= ${pct(MAX_RSS_GROWTH)}: ${verdict(growth <= MAX_RSS_GROWTH)}.`,
  `- The server exited with code ${exitCode} on SIGTERM.`,
].join("\n");

const report = `${context}\n\n${summary}\n\n${table}`;
console.log(`\n${report}\n`);
writeResultsSection("Load at saturation (issue 6): npm run bench:load", report);
console.log("written to bench/RESULTS.md");

function mb(value: number): string {
  return `${value.toFixed(0)} MB`;
}
