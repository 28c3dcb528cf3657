import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEMO_AS_OF, generateLicenses } from "../server/data/demo/generate-licenses.ts";
import { createLicenseRepo } from "../server/store/license-repo.ts";
import { openDatabase } from "../server/store/open-database.ts";
import { replaceState } from "../server/store/replace-state.ts";

export const BENCH_DIR = new URL("./.data/", import.meta.url).pathname;
export const BENCH_DB = join(BENCH_DIR, "bench.sqlite");
const BUILD_LOG = join(BENCH_DIR, "build.json");

/** The million-record state the targets are about, then smaller states beside it. */
export const BENCH_STATES: Readonly<Record<string, number>> = { ny: 1_000_000, ma: 50_000, nj: 50_000 };
export const BIG_STATE = "ny";

export interface BenchDb {
  file: string;
  /** Seconds the 1,000,000-record state took to build, now or when it was last built. */
  bigBuildSeconds: number | null;
  reused: boolean;
  builtAt: string | null;
}

interface BuildLog {
  bigBuildSeconds: number;
  builtAt: string;
}

/**
 * Reuses the benchmark database when every state holds its full count (the coverage `GET /v2/states`
 * shows), else builds the missing states through the store's own writer; `rebuild` starts from nothing.
 */
export async function ensureBenchDb({ rebuild = false } = {}): Promise<BenchDb> {
  mkdirSync(BENCH_DIR, { recursive: true });
  if (rebuild) for (const suffix of ["", "-wal", "-shm"]) rmSync(BENCH_DB + suffix, { force: true });
  if (rebuild) rmSync(BUILD_LOG, { force: true });

  const db = openDatabase(BENCH_DB, { create: true });
  const have = new Map(
    createLicenseRepo(db)
      .coverage()
      .map((c) => [c.state, c.records]),
  );
  const missing = Object.entries(BENCH_STATES).filter(([state, count]) => have.get(state) !== count);
  let log = readLog();

  for (const [state, count] of missing) {
    process.stderr.write(`building ${state}: ${count.toLocaleString("en-US")} records `);
    const started = performance.now();
    await replaceState(db, { state, source: "demo", asOf: DEMO_AS_OF }, generateLicenses(state, count), {
      onProgress: (n) => n % 100_000 === 0 && process.stderr.write("."),
    });
    const seconds = (performance.now() - started) / 1000;
    process.stderr.write(` ${seconds.toFixed(1)} s\n`);
    if (state === BIG_STATE) {
      log = { bigBuildSeconds: seconds, builtAt: new Date().toISOString() };
      writeFileSync(BUILD_LOG, JSON.stringify(log));
    }
  }
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  const reusedBig = !missing.some(([state]) => state === BIG_STATE);
  return {
    file: BENCH_DB,
    bigBuildSeconds: log?.bigBuildSeconds ?? null,
    reused: reusedBig,
    builtAt: log?.builtAt ?? null,
  };
}

function readLog(): BuildLog | null {
  return existsSync(BUILD_LOG) ? (JSON.parse(readFileSync(BUILD_LOG, "utf8")) as BuildLog) : null;
}
