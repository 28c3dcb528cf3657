import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_MAX_SHRINK } from "../data/import/shrink-guard.ts";
import { DatabaseFileError, openDatabase, type Db } from "../store/open-database.ts";
import { FEEDS } from "../data/sync/feeds.ts";
import { withOrigin } from "../data/sync/http-client.ts";
import { agencyUrl, feedsFor, formatFeedReport, syncFeeds, type FeedReport } from "../data/sync/run-sync.ts";
import { SyncLockedError, withSyncLock } from "../data/sync/sync-lock.ts";
import { LockUnavailableError, withLock, type Turn } from "../db/advisory-lock.ts";
import { databaseUrlFromEnv, openStateDb, type StateDb } from "../db/state-db.ts";
import { publishAfterWrite } from "../data/publish/publish-snapshot.ts";
import type { SnapshotRow } from "../store/snapshots/snapshot-store.ts";
import {
  lastSyncRound,
  migrateNodeSync,
  NODE_SYNC_LOCK,
  recordSyncRound,
  startFromNewestSnapshot,
  THIS_NODE,
  waitForTurn,
} from "../data/sync/node-sync.ts";
import { fail } from "./fail.ts";

const USAGE = `Keeps the database current from the agencies: for each feed it knows, asks whether the agency
published something new, fetches it only then, keeps it in the archive and imports it.

usage: npm run sync -- --db FILE [--states ny,nj,...] [--origin URL] [--every HOURS] [--max-shrink PCT]

  --db FILE         SQLite database to keep current (created when missing)
  --states LIST     only these states' feeds (default: every feed)
  --origin URL      ask this scheme and host instead of each agency's (the path and query stay): a local
                    mirror, a corporate proxy, a test's replay server
  --every HOURS     keep running and sync every HOURS hours (default: env SYNC_EVERY_HOURS, else 6);
                    0: once, then exit. Stop a running one with SIGTERM or SIGINT
  --max-shrink PCT  refuse a list that would stop serving more than PCT% of a state's licenses (default
                    ${DEFAULT_MAX_SHRINK}); a real shrink is then imported by hand with npm run import -- --accept-shrink
  --help            this text

Feeds:
${FEEDS.map((f) => `  ${f.feed.padEnd(32)} ${agencyUrl(f)}`).join("\n")}

One line per feed says what happened: unchanged, updated, refused (a web page, a cut or incomplete
download, an unknown layout, no usable row, a shrink past the limit: recorded with its reason and
its archived copy) or not checked (no answer, an error). The old records stay served on every fault.
Exit code 1 when a feed was refused or not checked. Requests to one agency go one at a time, with
time limits, retries on 429 and 5xx (honouring Retry-After), and the User-Agent SYNC_USER_AGENT.
Two syncs of one database never run at once: a second says which process holds FILE.sync-lock.
Every file fetched is kept in "archive" beside --db FILE, named by its SHA-256. A file's name comes
from its URL, made a plain name inside the sync's own folder; a zip's member is read as a stream and
refused past SYNC_MAX_UNZIPPED_MB megabytes (default 1024), as a zip bomb would be.
With DATABASE_URL (postgres://…), each sync ends by publishing the database there as a snapshot,
which every service node (npm run api with the same DATABASE_URL) fetches and swaps in, and syncs
run once across every machine on that DATABASE_URL: a sync holds a PostgreSQL advisory lock while it
runs, as an import does, and a killed one's lock goes with its connection. A --every round that finds
it held waits ("waiting for another node's sync or import to end"), so it syncs at once in the stead
of a machine that died mid-sync; a sync run once says "another node's sync or import is running" and
exits 1. FILE first becomes the newest published snapshot unless it is that already, so a sync
continues from the last, whichever machine ran it; and a --every round skips when another machine's
sync published less than HOURS ago ("synced by another node at T; next check at T2"), so a machine
gone quiet is relieved within one period. A publish is fenced: when another snapshot was published
after the sync started from its own (its lock's connection was lost and another node's import or
sync ran), it is refused, and the newer snapshot stays served; a sync whose lock's connection is lost
begins no further feed and does not publish.`;

let parsed;
try {
  parsed = parseArgs({
    options: {
      db: { type: "string" },
      states: { type: "string" },
      origin: { type: "string" },
      every: { type: "string" },
      "max-shrink": { type: "string" },
      help: { type: "boolean", default: false },
    },
  });
} catch (error) {
  fail(`${(error as Error).message}\n\n${USAGE}`);
}
const { values } = parsed;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!values.db) fail("--db FILE is required: the SQLite database to keep current (see --help)");
const db = values.db;
/** Aborted by SIGTERM or SIGINT (kept running with --every). */
const stopping = new AbortController();
// Syncs run by themselves unless told otherwise: a worker started with no option keeps the data current.
const everyText = values.every ?? process.env.SYNC_EVERY_HOURS ?? "6";
const every = Number(everyText);
if (!/^\d+(\.\d+)?$/.test(everyText.trim())) fail(`--every must be a number of hours (0: once), not ${everyText}`);
const maxShrink = values["max-shrink"] === undefined ? undefined : Number(values["max-shrink"]);
if (maxShrink !== undefined && !(/^\d+(\.\d+)?$/.test(values["max-shrink"]!) && maxShrink <= 100))
  fail(`--max-shrink must be a percentage from 0 to 100, not ${values["max-shrink"]}`);
const maxMemberMb = process.env.SYNC_MAX_UNZIPPED_MB?.trim();
if (maxMemberMb && !(/^\d+(\.\d+)?$/.test(maxMemberMb) && Number(maxMemberMb) > 0))
  fail(`SYNC_MAX_UNZIPPED_MB must be a number of megabytes, not ${maxMemberMb}`);
const maxMemberBytes = maxMemberMb ? Math.round(Number(maxMemberMb) * 1_048_576) : undefined;
const states = values.states
  ?.split(",")
  .map((s) => s.trim().toLowerCase())
  .filter(Boolean);
let databaseUrl: string | null = null;
try {
  databaseUrl = databaseUrlFromEnv(process.env);
  feedsFor(states);
  withOrigin("https://example.org/", values.origin);
} catch (error) {
  fail((error as Error).message);
}

/** What a round came to: its exit code, and when to look again if another node synced meanwhile. */
interface Round {
  code: number;
  nextCheck?: Date;
}

const HOUR_MS = 3_600_000;
const say = (line: string) => console.log(line);

/** One sync, holding the database file's lock; with DATABASE_URL, among every node. `scheduled`: a round of --every. */
async function syncOnce(scheduled: boolean): Promise<Round> {
  // The lock sits beside the database, which may not be made yet.
  mkdirSync(dirname(db), { recursive: true });
  try {
    return await withSyncLock(db, async () =>
      databaseUrl ? await acrossNodes(databaseUrl, scheduled) : { code: await syncFile(null) },
    );
  } catch (error) {
    if (!(error instanceof SyncLockedError)) throw error;
    console.error(`error: ${error.message}`);
    return { code: 1 };
  }
}

/**
 * With DATABASE_URL: one sync among every node, holding the nodes' lock. Run once, a sync refuses when another
 * node's holds it; a round of --every waits its turn, then finds that node's sync recorded and skips, or syncs in
 * its stead when that node died first.
 */
async function acrossNodes(url: string, scheduled: boolean): Promise<Round> {
  const state = openStateDb({ url, poolSize: 2 });
  const turn: Turn = scheduled ? waitForTurn(url, say, stopping.signal) : { wait: false };
  try {
    const round = await withLock(url, NODE_SYNC_LOCK, turn, (lost) => syncInTurn(state, url, scheduled, lost));
    if (round) return round;
    // Stopped while it waited.
    if (scheduled) return { code: 0 };
    console.error(
      `error: another node's sync or import is running (it holds the sync lock in ${state.label}); this one did nothing.`,
    );
    return { code: 1 };
  } catch (error) {
    // The lock could not be asked for; the steps under it say their own faults.
    if (!(error instanceof LockUnavailableError)) throw error;
    return unusable(state, error, "nothing was synced");
  } finally {
    await state.close();
  }
}

/**
 * A sync across nodes, continuing from the newest snapshot whoever published it; run holding the nodes' lock. Its
 * publish is fenced: refused when another snapshot was published since it started (its lock was lost meanwhile,
 * and another node's import or sync ran). `lost` stops it before the next feed.
 */
async function syncInTurn(state: StateDb, url: string, scheduled: boolean, lost: AbortSignal): Promise<Round> {
  let startedFrom: string | null;
  try {
    await migrateNodeSync(state);
    const skip = scheduled ? await syncedElsewhere(state) : null;
    if (skip) return skip;
    startedFrom = (await startFromNewestSnapshot(state, db, say))?.row.sha256 ?? null;
  } catch (error) {
    return unusable(state, error, "nothing was synced");
  }
  let published: SnapshotRow | undefined;
  const code = await syncFile({ url, startedFrom, lost }, (row) => (published = row));
  if (!published) return { code };
  try {
    // Once syncFile has closed the file: closing writes the journal's last pages into it.
    await recordSyncRound(state, db, published);
    return { code };
  } catch (error) {
    return unusable(state, error, "the database was synced and published, but other nodes' rounds may not know it yet");
  }
}

/** A round of --every skips when another node synced within the period: the round it came to, or null. */
async function syncedElsewhere(state: StateDb): Promise<Round | null> {
  const last = await lastSyncRound(state);
  const due = last ? Date.parse(last.finished_at) + every * HOUR_MS : 0;
  if (!last || last.node === THIS_NODE || due <= Date.now()) return null;
  const nextCheck = new Date(due);
  console.log(`synced by another node at ${last.finished_at}; next check at ${nextCheck.toISOString()}`);
  return { code: 0, nextCheck };
}

/** PostgreSQL unreachable or refusing: said in a sentence rather than a stack, with what it left undone. */
function unusable(state: StateDb, error: unknown, undone: string): Round {
  console.error(
    `error: the sync could not use ${state.label} (${(error as Error).message}); ${undone}. ` +
      `Check that PostgreSQL answers at DATABASE_URL, then run the sync again`,
  );
  return { code: 1 };
}

/** Where a sync across nodes publishes, the snapshot it started from, and the signal that its lock was lost. */
interface PublishTo {
  url: string;
  startedFrom: string | null;
  lost: AbortSignal;
}

/** Syncs the file's feeds and, with `to`, publishes it; its exit code. The file is closed when it returns. */
async function syncFile(to: PublishTo | null, onPublished?: (row: SnapshotRow) => void): Promise<number> {
  let opened: Db | undefined;
  try {
    opened = openDatabase(db, { create: true });
    console.log(`sync of ${db} at ${new Date().toISOString()}${values.origin ? ` from ${values.origin}` : ""}`);
    const reports = await syncFeeds(opened, {
      archive: join(dirname(db), "archive"),
      origin: values.origin,
      states,
      maxShrink,
      maxMemberBytes,
      signal: to?.lost,
      onFeed: (report) => console.log(formatFeedReport(report)),
    });
    console.log(summary(reports));
    if (to?.lost.aborted) {
      console.error(
        `error: the sync's connection to PostgreSQL, which held the sync lock, was lost (${reports.length} of ` +
          `${feedsFor(states).length} feeds were checked): another node may be syncing now, so this sync began ` +
          `no further feed and did not publish. The service nodes keep serving the newest snapshot; run the sync again`,
      );
      return 1;
    }
    // Even when nothing changed: the record of these checks did, and /v2/states shows it. Fenced: refused when
    // another snapshot was published since this sync started from its own.
    const published = to ? await publishAfterWrite(opened, to.url, process.env, onPublished, to.startedFrom) : true;
    return published && reports.every((r) => r.outcome === "changed" || r.outcome === "unchanged") ? 0 : 1;
  } catch (error) {
    // A database this version cannot write (a newer store's), or one that is no database: say so, let the lock go.
    if (!(error instanceof DatabaseFileError)) throw error;
    console.error(`error: ${error.message}`);
    return 1;
  } finally {
    opened?.close();
  }
}

function summary(reports: FeedReport[]): string {
  const count = (outcome: FeedReport["outcome"]) => reports.filter((r) => r.outcome === outcome).length;
  const parts = [
    `${count("changed")} updated`,
    `${count("unchanged")} unchanged`,
    `${count("refused")} refused`,
    `${count("failed")} not checked`,
  ];
  const none = count("changed") === 0 ? "; nothing in the database changed but the record of these checks" : "";
  const faults =
    count("refused") + count("failed") > 0 ? "; the refused and unchecked feeds' states keep their old records" : "";
  return `${reports.length} feeds: ${parts.join(", ")}${none}${faults}.`;
}

if (every === 0) process.exit((await syncOnce(false)).code);

// Kept running: a sync now, then every `every` hours, until a signal. A sync under way finishes first; a round
// waiting for another node's ends its wait.
let wake: (() => void) | undefined;
const stop = () => {
  stopping.abort();
  wake?.();
};
process.on("SIGTERM", stop).on("SIGINT", stop);
while (!stopping.signal.aborted) {
  const { nextCheck } = await syncOnce(true);
  if (stopping.signal.aborted) break;
  const next = nextCheck ?? new Date(Date.now() + every * HOUR_MS);
  if (!nextCheck) console.log(`next sync at ${next.toISOString()}`);
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, Math.max(0, next.getTime() - Date.now()));
    wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });
}
process.exit(0);
