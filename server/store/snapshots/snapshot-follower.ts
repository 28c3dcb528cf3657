import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import { createWriteStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import { finished } from "node:stream/promises";
import { listen } from "../../db/listen.ts";
import { migrateStateDb, openStateDb, type StateDb } from "../../db/state-db.ts";
import { readInTurnSnapshots } from "../change-watch.ts";
import { createLicenseRepo } from "../license-repo.ts";
import { STORE_VERSION, storeVersion } from "../migrations.ts";
import { DatabaseFileError, openDatabase, type Db } from "../open-database.ts";
import { hashFile } from "./snapshot-store.ts";
import { createLicenseHolder, type LoadedData } from "./license-holder.ts";
import {
  newestSnapshot,
  readSnapshot,
  SNAPSHOT_CHANNEL,
  SNAPSHOT_MIGRATIONS,
  SNAPSHOT_TABLE_PREFIX,
  type SnapshotRow,
} from "./snapshot-store.ts";

/** How often a node asks for the newest snapshot besides being told (LISTEN): a lost notification costs at most this. */
export const DEFAULT_POLL_MS = 15_000;

export interface FollowOptions {
  /** The shared PostgreSQL, where snapshots are published. */
  state: StateDb;
  /** Its URL, for the connection that LISTENs. */
  databaseUrl: string;
  /** `--db`: snapshots are kept beside it, and it is served while none is published. */
  localFile: string;
  pollMs?: number;
  /** Off: polling alone (a test of notifications lost). */
  listen?: boolean;
  log?: (line: string) => void;
}

/**
 * Keeps a service node on the newest published snapshot: fetches it into the local file's folder (under a
 * temporary name, its SHA-256 checked, then renamed), opens it read-only and swaps it in between requests.
 * Told of new ones by NOTIFY, and asks every `pollMs` as well.
 */
export async function followSnapshots(options: FollowOptions) {
  const { state, localFile, pollMs = DEFAULT_POLL_MS, log = (line: string) => console.error(line) } = options;
  const holder = createLicenseHolder();
  // Contents that failed their check: not fetched again until a newer one is published.
  const refused = new Set<string>();
  let waitingSaid = false;
  let problem: string | null = null;
  let closed = false;
  let announceLoaded: () => void;
  const loaded = new Promise<void>((resolve) => (announceLoaded = resolve));

  const serve = (data: LoadedData, what: string) => {
    holder.swap(data);
    problem = null;
    log(`serving ${what}`);
    announceLoaded();
  };

  const checkOnce = async () => {
    const row = await newestSnapshot(state);
    if (!row) {
      if (holder.loaded()) return;
      if (existsSync(localFile)) {
        let db: Db;
        try {
          db = openDatabase(localFile, { migrate: false });
        } catch (error) {
          if (!(error instanceof DatabaseFileError)) throw error;
          // Said once; the node waits for a publish, or for the file to be put right.
          if (problem !== error.message) log(`${error.message}; meanwhile waiting for a snapshot to be published`);
          problem = error.message;
          return;
        }
        readInTurnSnapshots(db);
        serve({ db, repo: createLicenseRepo(db), snapshot: null }, `${localFile}: no snapshot is published yet`);
        return;
      }
      problem = `no snapshot is published in ${state.label} yet, and ${localFile} does not exist`;
      if (!waitingSaid)
        log(`${problem}: waiting for \`npm run import\` or \`npm run sync\` with DATABASE_URL to publish one`);
      waitingSaid = true;
      return;
    }
    if (row.sha256 === holder.served()?.sha256 || refused.has(row.sha256)) return;
    const file = snapshotFile(localFile, row.sha256);
    try {
      if (!(existsSync(file) && (await hashFile(file)).sha256 === row.sha256))
        await fetchSnapshot(state, row, file, () => closed);
      const data = openSnapshot(file, row);
      serve(data, `snapshot ${row.sha256.slice(0, 12)} (published ${row.published_at})`);
      removeOtherSnapshots(localFile, row.sha256);
    } catch (error) {
      if (!(error instanceof RefusedSnapshot)) throw error;
      refused.add(row.sha256);
      problem = error.message;
      const now = holder.served();
      log(`refused ${error.message}; ${now ? `still serving ${now.sha256.slice(0, 12)}` : "nothing is served yet"}`);
    }
  };

  // One check at a time; one asked for meanwhile runs after it (a notification during a fetch is not lost).
  let running: Promise<void> | null = null;
  let again = false;
  const check = (): Promise<void> => {
    if (closed) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          const away = problem?.startsWith(CANNOT_FOLLOW) ?? false;
          await checkOnce();
          if (away && problem?.startsWith(CANNOT_FOLLOW)) {
            problem = null;
            log(`following the snapshots in ${state.label} again`);
          }
        } catch (error) {
          if (closed) break;
          const now = `${CANNOT_FOLLOW} ${state.label}: ${(error as Error).message}`;
          // Once per change: PostgreSQL away would otherwise fill the log every poll.
          if (now !== problem) log(now);
          problem = now;
        }
      } while (again && !closed);
      running = null;
    })();
    return running;
  };

  await migrateStateDb(state, SNAPSHOT_TABLE_PREFIX, SNAPSHOT_MIGRATIONS);
  // Told of each publish, and once more on each (re)connection: one announced while it was away is then not missed.
  const listener =
    options.listen === false
      ? null
      : listen(options.databaseUrl, SNAPSHOT_CHANNEL, {
          onNotification: () => void check(),
          onListening(afterOutage) {
            if (afterOutage) log("snapshot notifications are back");
            void check();
          },
          onLost: (error) => log(`lost the snapshot notifications (${error.message}); reconnecting`),
        });
  const poll = setInterval(() => void check(), pollMs);
  await check();

  return {
    /** The repository to build the app on: always the data swapped in last. */
    licenses: holder.licenses,
    /** The snapshot served now (null: none yet, or the local file). */
    served: holder.served,
    /** Resolves once data is served: the node listens after it. */
    loaded,
    /** Why this node is not ready to serve; empty once it serves data. For /readyz. */
    snapshotReadiness(): string[] {
      return holder.loaded() ? [] : [problem ?? "the license data is not loaded yet"];
    },
    /** Asks for the newest snapshot now, as a notification does. */
    check,
    async close(): Promise<void> {
      closed = true;
      clearInterval(poll);
      await listener?.close();
      await running;
      holder.close();
    },
  };
}

export type SnapshotFollower = Awaited<ReturnType<typeof followSnapshots>>;

const CANNOT_FOLLOW = "cannot follow the snapshots in";

/** A snapshot that failed its checks: it is not served, and not fetched again. */
class RefusedSnapshot extends Error {}

/** Where a node keeps a snapshot: beside its --db file, named by the content. */
function snapshotFile(localFile: string, sha256: string): string {
  return join(dirname(localFile), `${stem(localFile)}-snapshot-${sha256}.sqlite`);
}

function stem(localFile: string): string {
  return basename(localFile, extname(localFile));
}

/** Fetches into a temporary name beside `file`, checks the SHA-256, then renames; stops early once `stopped()`. */
export async function fetchSnapshot(
  state: StateDb,
  row: SnapshotRow,
  file: string,
  stopped: () => boolean,
): Promise<void> {
  const part = join(dirname(file), `.${basename(file)}.part-${process.pid}`);
  const hash = createHash("sha256");
  let bytes = 0;
  mkdirSync(dirname(file), { recursive: true });
  const out = createWriteStream(part);
  try {
    for await (const chunk of readSnapshot(state, row)) {
      // A node stopping does not wait for a large download to end.
      if (stopped()) throw new Error("the node is stopping");
      hash.update(chunk);
      bytes += chunk.length;
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
    }
    out.end();
    await finished(out);
    const sha256 = hash.digest("hex");
    if (sha256 !== row.sha256 || bytes !== row.bytes) {
      throw new RefusedSnapshot(
        `snapshot ${row.sha256.slice(0, 12)}: its ${bytes} bytes fetched have the SHA-256 ${sha256}, not the one it was published under ` +
          `(a damaged upload: publish again with \`npm run import\` or \`npm run sync\`)`,
      );
    }
    renameSync(part, file);
  } finally {
    out.destroy();
    rmSync(part, { force: true });
  }
}

/** Opens a fetched snapshot read-only, as it is: nothing is ever written to it, so its SHA-256 stays its name. */
function openSnapshot(file: string, row: SnapshotRow): LoadedData {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    // Nothing ever writes it: the shared lock taken by the first read is kept, rather than taken and dropped, with
    // the check for a change and a journal, at each event-loop turn's read transaction (a lookup 18 -> 9 µs of CPU
    // in-process; the single node's WAL file takes 14).
    db.pragma("locking_mode = EXCLUSIVE");
    const version = storeVersion(db);
    if (version !== STORE_VERSION) {
      throw new RefusedSnapshot(
        `snapshot ${row.sha256.slice(0, 12)} is at store version ${version}, and this node reads ${STORE_VERSION}: ` +
          `run the same version of License Lookup on the nodes as on the machine that imports`,
      );
    }
    readInTurnSnapshots(db);
    const repo = createLicenseRepo(db);
    // Read once before it is served: the first request after the swap does not pay for the cold cache.
    repo.coverage();
    return {
      db,
      repo,
      snapshot: { sha256: row.sha256, published_at: row.published_at },
      retired: () => rmSync(file, { force: true }),
    };
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Removes the snapshots this folder kept for the same --db before the one now served, and unfinished fetches. */
function removeOtherSnapshots(localFile: string, keep: string): void {
  const prefix = `${stem(localFile)}-snapshot-`;
  for (const name of readdirSync(dirname(localFile))) {
    const ours = name.startsWith(prefix) || name.startsWith(`.${prefix}`);
    if (ours && !name.includes(keep) && (name.endsWith(".sqlite") || name.includes(`.part-${process.pid}`))) {
      rmSync(join(dirname(localFile), name), { force: true });
    }
  }
}

/** `npm run api` with DATABASE_URL: follows the snapshots on a pool of its own, closed with it. */
export async function startSnapshotFollower(
  databaseUrl: string,
  localFile: string,
  options: Pick<FollowOptions, "pollMs" | "listen" | "log"> = {},
): Promise<SnapshotFollower> {
  const state = openStateDb({ url: databaseUrl, poolSize: 2 });
  try {
    const follower = await followSnapshots({ state, databaseUrl, localFile, ...options });
    return {
      ...follower,
      async close() {
        await follower.close();
        await state.close();
      },
    };
  } catch (error) {
    await state.close();
    throw new Error(
      `cannot use PostgreSQL at ${state.label} for the license snapshots (${(error as Error).message}): ` +
        `check DATABASE_URL and that PostgreSQL is running`,
    );
  }
}
