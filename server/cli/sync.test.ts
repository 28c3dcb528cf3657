import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { sharedData, tempFolder } from "../testing/adapter-test-helpers.ts";
import { readFileSync } from "node:fs";
import { createFeedChecksRepo } from "../store/feed-checks-repo.ts";
import { openDatabase } from "../store/open-database.ts";
import { startAgencyReplay, type AgencyReplay } from "../testing/agency-replay.ts";
import type { SocrataSource } from "../data/sync/feed-definition.ts";
import { FEEDS } from "../data/sync/feeds.ts";
import { takeSyncLock } from "../data/sync/sync-lock.ts";
import { openStateDb } from "../db/state-db.ts";
import { listSnapshots } from "../store/snapshots/snapshot-store.ts";
import { freshPostgresUrl } from "../testing/state-backends.ts";
import { socrataUrls } from "../data/sync/socrata-fetch.ts";
import { createLicenseRepo } from "../store/license-repo.ts";
import pg from "pg";
import { cliCommand } from "../testing/built-cli.ts";

const CO = FEEDS.find((f) => f.feed === "co-led/recently-approved")!.source as SocrataSource;
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
    const child = spawn(process.execPath, [...cliCommand("sync"), ...args], {
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
      [...cliCommand("sync"), "--db", db, "--states", "co", "--origin", replay.origin, "--every", "0.0005"],
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

describe("npm run sync on several machines (DATABASE_URL)", { timeout: 120_000 }, () => {
  const once = (url: string, db: string) =>
    runSyncWith({ DATABASE_URL: url }, "--db", db, "--states", "co", "--origin", replay.origin, "--every", "0");

  /**
   * `npm run sync` kept running (every 6 hours) as a machine of the cluster runs it, in `folder`: what it prints, and
   * `saying(text)`, which resolves once it has printed `text` (rejects if it exits first). Killed after the test,
   * a timeout included.
   */
  const scheduled = (url: string, folder: string) => {
    const child = spawn(
      process.execPath,
      [...cliCommand("sync"), "--db", temp.path(`${folder}/co.sqlite`), "--states", "co", "--origin", replay.origin],
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: url, SYNC_EVERY_HOURS: "6" } },
    );
    onTestFinished(() => void (child.exitCode === null && child.kill("SIGKILL")));
    let stdout = "";
    const waiters = new Set<() => void>();
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      for (const look of waiters) look();
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    const saying = (text: string) =>
      new Promise<void>((resolve, reject) => {
        const look = () => {
          if (stdout.includes(text)) {
            waiters.delete(look);
            resolve();
          }
        };
        waiters.add(look);
        void exited.then(() => reject(new Error(`exited before saying "${text}":\n${stdout}${stderr}`)));
        look();
      });
    return { child, exited, saying, stdout: () => stdout };
  };

  it("two syncs at once: one syncs, the other says another node's sync or import is running and does nothing", async () => {
    const url = await freshPostgresUrl("sync_once");
    // The first asked waits 3 s (Retry-After), holding the lock while the second looks.
    replay.fault(socrataUrls(CO).metadata, [{ kind: "status", status: 503, retryAfter: "3" }]);
    const runs = await Promise.all([
      once(url, temp.path("node-a/co.sqlite")),
      once(url, temp.path("node-b/co.sqlite")),
    ]);
    const [synced, refused] = runs[0].code === 0 ? runs : [runs[1], runs[0]];
    expect(synced.code).toBe(0);
    expect(synced.stdout).toContain("1 feeds: 1 updated");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^error: another node's sync or import is running \(it holds the sync lock in postgres.*\); this one did nothing\.\n$/,
    );
    expect(refused.stdout).toBe("");
    const state = openStateDb({ url });
    expect(await listSnapshots(state)).toHaveLength(1);
    await state.close();
  });

  it("a sync on another machine starts from the newest snapshot, so it keeps what the first built", async () => {
    const url = await freshPostgresUrl("sync_continue");
    expect((await once(url, temp.path("first/co.sqlite"))).code).toBe(0);

    const second = temp.path("second/co.sqlite");
    const run = await once(url, second);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/co\.sqlite starts from snapshot [0-9a-f]{12}, the newest \(published /);
    // The first machine's record of the feed came with it: nothing is fetched again.
    expect(run.stdout).toContain("CO co-led/recently-approved: unchanged");
    const opened = openDatabase(second);
    expect(createFeedChecksRepo(opened).get("co-led/recently-approved")).toMatchObject({ outcome: "unchanged" });
    expect(createLicenseRepo(opened).coverage()).toMatchObject([{ state: "co", records: 1157 }]);
    opened.close();

    // Its own publish is what it holds: the next sync there fetches nothing.
    const again = await once(url, second);
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain("starts from snapshot");
  });

  it("a killed sync's lock is free for the next one", async () => {
    const url = await freshPostgresUrl("sync_killed");
    replay.fault(socrataUrls(CO).metadata, [{ kind: "stall" }]);
    const child = spawn(
      process.execPath,
      [...cliCommand("sync"), "--db", temp.path("killed/co.sqlite"), "--states", "co", "--origin", replay.origin],
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: url, SYNC_EVERY_HOURS: "0" } },
    );
    const exited = new Promise((resolve) => child.on("close", resolve));
    child.stdout.resume();
    child.stderr.resume();
    // Stalled on the agency's answer, with the lock held.
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    // This database's advisory locks: pg_locks spans the cluster, where other test files take their own.
    const held = async () =>
      (
        await admin.query<{ n: number }>(
          "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
        )
      ).rows[0]!.n;
    while ((await held()) === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    const meanwhile = await once(url, temp.path("waiting/co.sqlite"));
    expect(meanwhile.code).toBe(1);
    expect(meanwhile.stderr).toContain("another node's sync or import is running");

    child.kill("SIGKILL");
    await exited;
    while ((await held()) > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    await admin.end();
    const next = await once(url, temp.path("waiting/co.sqlite"));
    expect(next.code).toBe(0);
    expect(next.stdout).toContain("1 feeds: 1 updated");
  });

  it("a sync whose lock connection is killed does not publish over an import published meanwhile", async () => {
    const url = await freshPostgresUrl("sync_fenced");
    expect((await once(url, temp.path("fenced-first/co.sqlite"))).code).toBe(0);
    // The next sync holds the lock while it waits out a Retry-After.
    replay.fault(socrataUrls(CO).metadata, [{ kind: "status", status: 503, retryAfter: "4" }]);
    const sync = once(url, temp.path("fenced/co.sqlite"));
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const holders = `FROM pg_locks WHERE locktype = 'advisory' AND granted AND objid::int = hashtext('lls_sync')
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
      await expect
        .poll(async () => (await admin.query<{ n: number }>(`SELECT count(*)::int AS n ${holders}`)).rows[0]!.n, {
          timeout: 30_000,
          interval: 50,
        })
        .toBe(1);
      await admin.query(`SELECT pg_terminate_backend(pid) ${holders}`);
      // Another machine's import takes the freed lock and publishes Massachusetts.
      const imported = spawnSync(
        process.execPath,
        [...cliCommand("import"), "--db", temp.path("fenced-import/licenses.sqlite"), "--source", "ma-abcc"].concat(
          sharedData("ma/ma_license_list.csv"),
        ),
        { cwd: ROOT, encoding: "utf8", timeout: 90_000, env: { ...process.env, DATABASE_URL: url } },
      );
      expect(imported.status).toBe(0);
      const state = openStateDb({ url });
      try {
        const [published] = await listSnapshots(state);
        const run = await sync;
        expect(run.code).toBe(1);
        expect(run.stderr).toMatch(
          /the sync's connection to PostgreSQL, which held the sync lock, was lost|was published at .*, after this database started from snapshot/,
        );
        // What the import published is still the newest: every node keeps serving Massachusetts.
        const [newest] = await listSnapshots(state);
        expect(newest!.sha256).toBe(published!.sha256);
        expect((JSON.parse(newest!.states) as { state: string }[]).map((s) => s.state)).toEqual(["co", "ma"]);
      } finally {
        await state.close();
      }
    } finally {
      await admin.end();
    }
  });

  it("a scheduled round waits for another node's sync, syncs in its stead when that node dies, and stops while waiting", async () => {
    const url = await freshPostgresUrl("sync_wait");
    // Another node's sync under way: the lock held on a connection of its own, as a sync holds it.
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    await other.query("SELECT pg_advisory_lock(hashtext('lls_sync'))");
    let otherAlive = true;
    try {
      // Stopped while it waits: it ends at once, having done nothing.
      const stopped = scheduled(url, "wait-stopped");
      await stopped.saying("waiting for another node's sync or import to end");
      stopped.child.kill("SIGTERM");
      expect(await stopped.exited).toBe(0);
      expect(stopped.stdout()).not.toContain("feeds:");

      const waiting = scheduled(url, "wait-instead");
      await waiting.saying("waiting for another node's sync or import to end");
      // The other node dies mid-sync, having published nothing: this round syncs in its stead.
      otherAlive = false;
      await other.end();
      await waiting.saying("next sync at");
      expect(waiting.stdout()).toContain("1 feeds: 1 updated");
      waiting.child.kill("SIGTERM");
      expect(await waiting.exited).toBe(0);
    } finally {
      if (otherAlive) await other.end();
    }
    const state = openStateDb({ url });
    expect(await listSnapshots(state)).toHaveLength(1);
    await state.close();
  });

  it("a scheduled round skips when another machine synced within the period, and says when it looks again", async () => {
    const url = await freshPostgresUrl("sync_skip");
    expect((await once(url, temp.path("early/co.sqlite"))).code).toBe(0);
    const late = scheduled(url, "late");
    await late.saying("\n");
    late.child.kill("SIGTERM");
    expect(await late.exited).toBe(0);
    const stdout = late.stdout();
    const [, at, next] = /^synced by another node at (\S+); next check at (\S+)\n$/.exec(stdout) ?? [];
    expect(Date.parse(next!) - Date.parse(at!)).toBe(6 * 3_600_000);
  });
});
