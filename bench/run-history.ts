import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { findSources } from "../server/data/import/find-sources.ts";
import { importSource } from "../server/data/import/import-source.ts";
import { createLicenseRepo } from "../server/store/license-repo.ts";
import { openDatabase } from "../server/store/open-database.ts";
import { percentiles, timeRuns } from "./percentiles.ts";
import { npmCommand, runContext, writeResultsSection } from "./results-file.ts";
import { markdownTable, verdict } from "./table.ts";

// `npm run bench:history`: what keeping each license's history costs. The database's size before and
// after importing every California report and every District list, and one license's history read
// in this process, as the route reads it (p99 budget: 2 ms).
const DATA = fileURLToPath(new URL("../../shared/data", import.meta.url));
const HISTORY_STATES = ["ca", "dc"];
const BUDGET_MS = 2;
const context = runContext(npmCommand("bench:history"));

const dir = mkdtempSync(join(tmpdir(), "bench-history-"));
const file = join(dir, "licenses.sqlite");
const db = openDatabase(file, { create: true });
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

/** The file's size with the write-ahead log folded in, and the bytes of the tables (and their indexes) of each kind. */
function sizes(): { file: number; observations: number; history: number; records: number } {
  db.pragma("wal_checkpoint(TRUNCATE)");
  const bytes = (where: string) =>
    (db.prepare(`SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE ${where}`).pluck().get() as number) ?? 0;
  return {
    file: statSync(file).size,
    observations: bytes(`name LIKE 'observations%'`),
    history: bytes(`name LIKE 'history\\_%' ESCAPE '\\'`),
    records: bytes(
      `name LIKE 'licenses\\_%' ESCAPE '\\' OR name LIKE 'rank\\_%' ESCAPE '\\' OR name LIKE 'words\\_%' ESCAPE '\\'`,
    ),
  };
}

const found = await findSources(DATA);
const importAll = async (keep: (state: string) => boolean) => {
  let seconds = 0;
  for (const { adapter, paths } of found.bySource.filter((s) => keep(s.adapter.state))) {
    const result = await importSource(db, adapter, paths);
    seconds += result.seconds;
    console.log(`${adapter.name}: ${paths.length} files, ${result.records} records in ${result.seconds.toFixed(1)} s`);
  }
  return seconds;
};
await importAll((state) => !HISTORY_STATES.includes(state));
const before = sizes();
const importSeconds = await importAll((state) => HISTORY_STATES.includes(state));
const after = sizes();

const repo = createLicenseRepo(db);
const live = (state: string) =>
  db.prepare(`SELECT id FROM datasets WHERE state = ? AND status = 'live'`).pluck().get(state) as number | undefined;
const rows: (string | number)[][] = [];
for (const state of HISTORY_STATES) {
  const id = live(state);
  if (id === undefined) {
    console.warn(`warning: no ${state} data under ${DATA}: its histories are not measured`);
    continue;
  }
  const all = db.prepare(`SELECT license, length(doc) AS size FROM history_${id}`).all() as {
    license: string;
    size: number;
  }[];
  // Every license of the state in turn, then the hundred longest histories, over and over.
  const longest = [...all].sort((a, b) => b.size - a.size).slice(0, 100);
  for (const [label, set] of [
    ["every license", all],
    ["the 100 longest histories", longest],
  ] as const) {
    let i = 0;
    const read = () => repo.history(state, set[i++ % set.length]!.license);
    const p = percentiles(await timeRuns(read, { warmup: 1000, iterations: Math.max(20_000, set.length) }));
    rows.push([
      state,
      label,
      set.length.toLocaleString("en-US"),
      p.p50.toFixed(3),
      p.p99.toFixed(3),
      verdict(p.p99 <= BUDGET_MS),
    ]);
  }
}
db.close();
rmSync(dir, { recursive: true, force: true });

const body = `${context}
- Every file under \`../shared/data\` a source knows, imported into a fresh database: first every state but California and the District, then California's ${found.bySource.find((s) => s.adapter.state === "ca")?.paths.length ?? 0} file(s) (the archive of 234 daily reports) and the District's ${found.bySource.find((s) => s.adapter.state === "dc")?.paths.length ?? 0} lists (${importSeconds.toFixed(1)} s). Sizes with the write-ahead log checkpointed; table bytes from SQLite's \`dbstat\`, indexes included.

${markdownTable(
  ["database", "file", "observations (what each source said)", "histories", "records and search indexes"],
  [
    [
      "before California and the District",
      mb(before.file),
      mb(before.observations),
      mb(before.history),
      mb(before.records),
    ],
    ["after", mb(after.file), mb(after.observations), mb(after.history), mb(after.records)],
  ],
)}

One license's history read in this process (\`licenseRepo.history\`, what \`GET /v2/history/{state}/{license}\` serves), in ms:

${markdownTable(["state", "licenses asked", "of", "p50", "p99", `p99 <= ${BUDGET_MS} ms`], rows)}
`;
console.log(body);
writeResultsSection("License history: its size and its lookups (issue 15): npm run bench:history", body);
