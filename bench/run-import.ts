import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { npmCommand, runContext, writeResultsSection } from "./results-file.ts";
import { markdownTable, verdict } from "./table.ts";

// `npm run bench:import`: README's `npm run import -- --all ../shared/data` into a fresh database,
// three times, as a person runs it (start-up, finding each file's source, every state's import,
// the coverage table). Budget: 30 s for the whole command on this machine.
const DATA = fileURLToPath(new URL("../../shared/data", import.meta.url));
const RUNS = 3;
const BUDGET_S = 30;
const context = runContext(npmCommand("bench:import"));

interface Run {
  wall: number;
  /** Per state: the import's own seconds and the records it then serves. */
  states: Map<string, { seconds: number; records: number }>;
}

function importOnce(): Run {
  const dir = mkdtempSync(join(tmpdir(), "bench-import-"));
  try {
    const started = performance.now();
    const run = spawnSync("npm", ["--silent", "run", "import", "--", "--db", join(dir, "real.sqlite"), "--all", DATA], {
      encoding: "utf8",
      maxBuffer: 64 * 2 ** 20,
    });
    const wall = (performance.now() - started) / 1000;
    if (run.status !== 0) throw new Error(`the import failed (${run.status}):\n${run.stderr}`);
    // "  records     23,260 served for NY now, from all its sources" then "  took        2.61 s: ..."
    const states = new Map<string, { seconds: number; records: number }>();
    const pattern = /records\s+([\d,]+) served for ([A-Z]{2}) now[^\n]*\n\s+took\s+([\d.]+) s/g;
    for (const [, records, state, seconds] of run.stdout.matchAll(pattern)) {
      states.set(state!, { seconds: Number(seconds), records: Number(records!.replaceAll(",", "")) });
    }
    return { wall, states };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const runs: Run[] = [];
for (let i = 0; i < RUNS; i++) {
  const run = importOnce();
  console.log(`run ${i + 1}: ${run.wall.toFixed(1)} s`);
  runs.push(run);
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const wall = median(runs.map((r) => r.wall));
const states = [...runs[0]!.states.keys()];
const rows = states.map((state) => {
  const seconds = median(runs.map((r) => r.states.get(state)?.seconds ?? NaN));
  return [state, runs[0]!.states.get(state)!.records.toLocaleString("en-US"), seconds.toFixed(2)];
});
const stateSeconds = median(runs.map((r) => [...r.states.values()].reduce((sum, s) => sum + s.seconds, 0)));

const body = `${context}
- Each run imports every file under \`../shared/data\` that a source knows into a fresh database, through
  \`npm run import -- --db FILE --all ../shared/data\`; the figures are the median of ${RUNS} runs.

| whole command (wall, median of ${RUNS}) | runs | budget | |
|---|---|---|---|
| ${wall.toFixed(1)} s | ${runs.map((r) => r.wall.toFixed(1)).join(", ")} s | ${BUDGET_S} s | ${verdict(wall <= BUDGET_S)} |

Each state's import as the command reports it ("took": rows read, checked and stored; records made
and indexed), median of ${RUNS}; ${stateSeconds.toFixed(1)} s together. The rest of the wall time is
starting the command, finding which source reads each file, and the coverage table.

${markdownTable(["state", "records served", "import (s)"], rows)}
`;
writeResultsSection("Importing every real export (issue 28): npm run bench:import", body);
console.log(body);
if (wall > BUDGET_S) process.exitCode = 1;
