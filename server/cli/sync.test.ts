import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedData, tempFolder } from "../import/adapter-test-helpers.ts";
import { readFileSync } from "node:fs";
import { createFeedChecksRepo } from "../store/feed-checks-repo.ts";
import { openDatabase } from "../store/open-database.ts";
import { startAgencyReplay, type AgencyReplay } from "../testing/agency-replay.ts";
import type { SocrataSource } from "../sync/feed-definition.ts";
import { FEEDS } from "../sync/feeds.ts";
import { takeSyncLock } from "../sync/sync-lock.ts";
import { openStateDb } from "../db/state-db.ts";
import { listSnapshots } from "../snapshots/snapshot-store.ts";
import { freshPostgresUrl } from "../testing/state-backends.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const temp = tempFolder("license-sync-cli-");
let replay: AgencyReplay;

beforeAll(async () => {
  replay = await startAgencyReplay();
  // Colorado's real list, at its Socrata paths: the quickest feed to load.
  const co = FEEDS.find((f) => f.feed === "co-led/recently-approved")!.source as SocrataSource;
  const csv = readFileSync(sharedData("co/Recently_Approved_Liquor_Licenses_in_Colorado.csv"), "utf8");
  replay.publishSocrata(co, csv, 1_762_000_000);
});
afterAll(async () => {
  await replay.close();
  temp.done();
});

/** Runs `npm run sync -- ARGS` as a person would, without a terminal (asynchronously: the replay answers it). */
function runSync(...args: string[]) {
  return runSyncWith({}, ...args);
}

function runSyncWith(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "server/cli/sync.ts", ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("npm run sync", { timeout: 120_000 }, () => {
  it("prints its usage, each feed and the schedule, on --help", async () => {
    const run = await runSync("--help");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      "usage: npm run sync -- --db FILE [--states ny,nj,...] [--origin URL] [--every HOURS] [--max-shrink PCT]",
    );
    expect(run.stdout).toContain("ny-sla/active-licenses           https://data.ny.gov/resource/9s3h-dpkz");
    expect(run.stdout).toContain(
      "--every HOURS     keep running and sync every HOURS hours (default: env SYNC_EVERY_HOURS, else 6);",
    );
  });

  it("with DATABASE_URL, ends each sync by publishing the database for the service nodes", async () => {
    const url = await freshPostgresUrl("sync");
    const run = await runSyncWith(
      { DATABASE_URL: url },
      ...["--db", temp.path("published/co.sqlite"), "--states", "co", "--origin", replay.origin, "--every", "0"],
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^published snapshot [0-9a-f]{12} \([\d.]+ MB\) to postgres/);
    const state = openStateDb({ url });
    const kept = await listSnapshots(state);
    await state.close();
    expect(kept.map((s) => JSON.parse(s.states) as unknown)).toEqual([
      [{ state: "co", records: 1157, as_of: "2025-11-01" }],
    ]);
  });

  it("syncs the feeds asked for from --origin, a line each, and the second time finds nothing new", async () => {
    const db = temp.path("co.sqlite");
    const first = await runSync("--db", db, "--states", "co", "--origin", replay.origin, "--every", "0");
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /\nCO co-led\/recently-approved: updated: its rows were updated 2025-11-01 12:26 UTC: htyp-tqzh\.csv loaded, 1,157 licenses served as of 2025-11-01\n1 feeds: 1 updated, 0 unchanged, 0 refused, 0 not checked\.\n$/,
    );
    const second = await runSync("--db", db, "--states", "co", "--origin", replay.origin, "--every", "0");
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(
      "CO co-led/recently-approved: unchanged: its rows were last updated 2025-11-01 12:26 UTC",
    );
    expect(second.stdout).toContain("nothing in the database changed but the record of these checks");
    const opened = openDatabase(db);
    expect(createFeedChecksRepo(opened).get("co-led/recently-approved")).toMatchObject({ outcome: "unchanged" });
    opened.close();
  });

  it("with --every, keeps running, syncs again after that many hours, and stops at SIGTERM", async () => {
    const db = temp.path("every.sqlite");
    // 0.0005 hours: 1.8 s between two syncs.
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "server/cli/sync.ts",
        "--db",
        db,
        "--states",
        "co",
        "--origin",
        replay.origin,
        "--every",
        "0.0005",
      ],
      { cwd: ROOT },
    );
    let stdout = "";
    const summaries = () => stdout.match(/^1 feeds: /gm)?.length ?? 0;
    await new Promise<void>((resolve) =>
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        if (summaries() === 2) resolve();
      }),
    );
    const code = new Promise((resolve) => child.on("close", resolve));
    child.kill("SIGTERM");
    expect(await code).toBe(0);
    expect(stdout).toMatch(/updated: [^]*\nnext sync at \d{4}-[^]*unchanged: /);
  });

  it("does nothing while another sync of the database runs, and says which", async () => {
    const db = temp.path("locked.sqlite");
    const release = takeSyncLock(db);
    try {
      const run = await runSync("--db", db, "--states", "co", "--origin", replay.origin, "--every", "0");
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(`error: another sync of ${db} is running (pid ${process.pid}); this one did nothing.\n`);
      expect(run.stdout).toBe("");
    } finally {
      release();
    }
  });

  it("exits non-zero with a hint for wrong options", async () => {
    const run = await runSync("--db", temp.path("x.sqlite"), "--states", "fl", "--every", "0");
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("error: no feed is known for FL: a sync fetches NY, NJ, MA, CA, DC, CO\n");
  });
});
