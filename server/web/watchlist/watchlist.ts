import { stateCodeOf, stateName } from "../../../src/contract/states.ts";
import {
  MAX_NUMBER_LENGTH,
  MAX_WATCHED,
  type WatchAddResult,
  type WatchAddRow,
  type WatchCheck,
  type WatchEntry,
  type Watchlist,
} from "../../../src/contract/watchlist.ts";
import type { StateDb } from "../../db/state-db.ts";
import { openJobQueue, type Recurring } from "../../jobs/job-queue.ts";
import { createDeliverer, type EmailSettings, type WebhookSettings } from "./deliveries.ts";
import { changeAlerts, expiringDigest, expiringKey, licenseLink, type ChainHead } from "./watch-alerts.ts";
import { runCheck } from "./watch-check.ts";
import { createServiceReader, NotCoveredError, type ReadAnswer } from "./service-reader.ts";
import { openWatchStore, type Answer } from "./watch-store.ts";

export interface WatchlistOptions {
  /** The app's state database, migrated with WATCH_MIGRATIONS; the watchlist does not close it. */
  state: StateDb;
  /**
   * On PostgreSQL, how long a node holds a job (a slice of a check, a delivery) before another node may take it
   * up: a node that dies is replaced within about 1.5 times this (WATCH_JOB_LEASE_SECONDS, 60 by default).
   */
  jobLeaseSeconds?: number;
  /** The license service and the key the app presents to it. */
  service: { baseUrl: string; apiKey: string; requestsPerSecond?: number };
  /** The app's own address, for the links in alerts. */
  appUrl: string;
  /** Between two scheduled checks; null: no schedule. */
  checkEveryMs: number | null;
  /** A check as soon as it starts (and a check a restart interrupted is always finished). */
  checkOnStart?: boolean;
  webhook?: WebhookSettings | null;
  email?: EmailSettings | null;
  retryBaseMs?: number;
  maxAttempts?: number;
  now?: () => Date;
  log?: (message: string) => void;
  /** The record of checks' head, carried by each daily digest so a mailbox can tell a rewritten record. */
  chainHead?: () => ChainHead | null | Promise<ChainHead | null>;
}

/** The jobs of a check (keyed by its id), and of the schedule that starts one. */
const CHECK_JOB = "watchlist-check";
const SCHEDULE_JOB = "watchlist-schedule";

/** `YYYY-MM-DD` where the server is: the day an "expiring within 30 days" digest belongs to. */
function localDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * The team's watchlist: its store, its checks (at start-up, on a schedule, on demand) and its alerts. Checks and
 * deliveries run as jobs: in this process on SQLite, once across the app's nodes on PostgreSQL (pg-boss).
 */
export async function createWatchlist({
  state,
  jobLeaseSeconds,
  service,
  appUrl,
  checkEveryMs,
  checkOnStart = true,
  webhook = null,
  email = null,
  retryBaseMs,
  maxAttempts,
  now = () => new Date(),
  log = () => {},
  chainHead = () => null,
}: WatchlistOptions) {
  const store = openWatchStore(state);
  const reader = createServiceReader(service);
  const jobs = await openJobQueue(state, { leaseSeconds: jobLeaseSeconds, log });
  const deliverer = createDeliverer({ store, jobs, webhook, email, retryBaseMs, maxAttempts, now, log });
  const link = (state: string, license: string) => licenseLink(appUrl, state, license);
  let schedule: Recurring | null = null;
  let sweeper: NodeJS.Timeout | undefined;
  let closed = false;
  let closing: Promise<void> | null = null;

  async function finish(check: WatchCheck) {
    const at = now();
    const changes = (await store.changesOf(check.id)).map((c) => ({ ...c, link: link(c.state, c.license) }));
    // Only what the alerts name is read: every entry at 10,000 held the app's other requests for 0.25 s.
    const records = await store.recordsOf(changes);
    const alerts = changeAlerts(check.id, changes, records, { webhook: webhook !== null, email: email !== null });
    const today = localDate(at);
    const digest =
      email && !(await store.hasDelivery(expiringKey(today)))
        ? expiringDigest(await store.entries(), today, appUrl, await chainHead())
        : null;
    const queued = await store.finishCheck(check.id, at.toISOString(), digest ? [...alerts, digest] : alerts);
    // Another node finished it first: its alerts are that node's to queue.
    if (queued === null) return;
    log(`watchlist: check ${check.id} (${check.trigger}) found ${changes.length} change(s)`);
    await deliverer.queue(queued);
  }

  /**
   * Runs a check as far as this job may (on PostgreSQL half a lease, so that it hands over before another node
   * thinks it dead); the rest goes on as the next job of the same check, on whichever node takes it.
   */
  async function runCheckJob({ id }: { id: number }) {
    // Thrown, the job is run again: by another node at once, or here at the next start. (Returned, it would count
    // as done, and the check would wait for the next start or schedule.)
    const stopping = () => new Error(`check ${id} left unfinished: the app is stopping`);
    if (closed) throw stopping();
    const check = await store.check(id);
    if (!check || check.finished_at !== null) return;
    const until = jobs.leaseMs === null ? Infinity : Date.now() + jobs.leaseMs / 2;
    // Which node ran which part of a check: an operator's first question when one dies.
    if (jobs.leaseMs !== null) log(`watchlist: check ${id} taken up by this node (pid ${process.pid})`);
    const done = await runCheck(store, reader, check, { now, stopped: () => closed || Date.now() > until });
    if (closed) throw stopping();
    if (done) await finish(check);
    else await jobs.send(CHECK_JOB, String(id), { id });
  }

  /** Starts a check, or answers the one running (on any node); a check a stop interrupted is finished first. */
  async function check(trigger: WatchCheck["trigger"]): Promise<WatchCheck> {
    const started = await store.beginCheck(trigger, now().toISOString());
    await jobs.send(CHECK_JOB, String(started.id), { id: started.id });
    return started;
  }

  /** The running check, else the last one. */
  const currentCheck = async () => (await store.unfinishedCheck()) ?? (await store.lastCheck());

  await jobs.work(CHECK_JOB, runCheckJob);
  await jobs.work(SCHEDULE_JOB, async () => void (await check("schedule")));
  await deliverer.start();
  if (checkOnStart || (await store.unfinishedCheck())) await check("start-up");
  if (checkEveryMs !== null) schedule = jobs.every(SCHEDULE_JOB, checkEveryMs, {});
  await store.retryPending(now().toISOString());
  await deliverer.sweep();
  // Across nodes, a delivery whose node stopped between queuing it and sending its job is found again.
  if (jobs.leaseMs !== null) {
    sweeper = setInterval(() => {
      deliverer.sweep().catch((error: Error) => log(`watchlist: could not look for deliveries: ${error.message}`));
    }, jobs.leaseMs);
    sweeper.unref();
  }

  return {
    async list(): Promise<Watchlist> {
      const [entries, changes, lookedAt, current, undelivered] = await Promise.all([
        store.entries(),
        store.unseenChanges(),
        store.lookedAt(),
        currentCheck(),
        store.undelivered(),
      ]);
      return {
        entries,
        changes: changes.map((c) => ({ ...c, link: link(c.state, c.license) })),
        looked_at: lookedAt,
        check: current,
        next_check_at: schedule && schedule.next().toISOString(),
        alerts: { webhook: webhook !== null, email: email !== null, undelivered },
        max: MAX_WATCHED,
      };
    },
    entry: (state: string, license: string): Promise<WatchEntry | null> => store.entry(state, license),
    currentCheck,
    remove: (state: string, license: string) => store.remove(state, license),
    /** Marks seen the changes up to `upTo`; the watched licenses they were of, as the clerk was shown them. */
    async markSeen(upTo: number): Promise<WatchEntry[]> {
      const keys = new Set(
        (await store.unseenChanges()).filter((c) => c.id <= upTo).map((c) => `${c.state}/${c.license}`),
      );
      const entries: WatchEntry[] = [];
      for (const key of keys) {
        const [state, license] = key.split("/") as [string, string];
        const entry = await store.entry(state, license);
        if (entry) entries.push(entry);
      }
      await store.markSeen(upTo, now().toISOString());
      return entries;
    },
    check,

    /**
     * Adds rows as a clerk gave them, each answered on its own: a row that names no state we know,
     * no number, a license the service does not hold or a state outside the key is not added, and says why.
     */
    async add(rows: readonly WatchAddRow[]): Promise<{ rows: WatchAddResult[]; added: number; watched: number }> {
      // Keyed by the row itself: a client's row numbers need not be unique.
      const results = new Map<WatchAddRow, WatchAddResult>();
      const fail = (row: WatchAddRow, error: string, state = row.state) =>
        results.set(row, { row: row.row, state, license: row.license, outcome: "error", error });
      const asked = new Map<string, Map<string, WatchAddRow[]>>();
      for (const row of rows) {
        const state = stateCodeOf(row.state);
        const license = row.license.trim();
        if (state === null) {
          fail(row, row.state.trim() ? `unknown state “${row.state.trim()}”: write it as NY or New York` : "no state");
        } else if (license === "") {
          fail(row, "no license number: a license number is needed to watch a license", state);
        } else if (license.length > MAX_NUMBER_LENGTH) {
          fail(
            row,
            `the license number is ${license.length} characters long; a number has at most ${MAX_NUMBER_LENGTH}`,
            state,
          );
        } else {
          const numbers = asked.get(state) ?? new Map<string, WatchAddRow[]>();
          asked.set(state, numbers);
          numbers.set(license, [...(numbers.get(license) ?? []), row]);
        }
      }
      const found: Answer[] = [];
      const rowsOf = new Map<string, WatchAddRow[]>();
      for (const [state, numbers] of asked) {
        const name = stateName(state) ?? state.toUpperCase();
        const fresh: string[] = [];
        const watched = await store.watchedOf(state, [...numbers.keys()]);
        for (const [n, rowsOfN] of numbers) {
          if (!watched.has(n)) fresh.push(n);
          else
            for (const row of rowsOfN)
              results.set(row, { row: row.row, state, license: n, outcome: "already watched", error: null });
        }
        for (let start = 0; start < fresh.length; start += reader.batchSize) {
          const part = fresh.slice(start, start + reader.batchSize);
          let answer: ReadAnswer;
          try {
            answer = await reader.read(state, part);
          } catch (error) {
            const why =
              error instanceof NotCoveredError
                ? `${name} is not covered: License Lookup has no ${name} records for your team`
                : `not checked: ${(error as Error).message}; add it again later`;
            for (const n of part) for (const row of numbers.get(n)!) fail(row, why, state);
            continue;
          }
          part.forEach((n, i) => {
            const record = answer.licenses[i] ?? null;
            if (!record) {
              for (const row of numbers.get(n)!) {
                fail(row, `no ${name} license “${n}” in our data: check the number as the state writes it`, state);
              }
              return;
            }
            found.push({ state, license: n, outcome: "found", record, provenance: answer.provenance[i] ?? null });
            rowsOf.set(`${state}/${n}`, numbers.get(n)!);
          });
        }
      }
      // Within the limit, in the list's order; the rest say why.
      const room = Math.max(0, MAX_WATCHED - (await store.count()));
      const kept = found.slice(0, room);
      for (const a of found.slice(room)) {
        for (const row of rowsOf.get(`${a.state}/${a.license}`)!) {
          fail(
            row,
            `the watchlist is full (${MAX_WATCHED.toLocaleString("en-US")} licenses): remove some to add more`,
            a.state,
          );
        }
      }
      const outcomes = await store.add(kept, now().toISOString());
      let added = 0;
      for (const a of kept) {
        const outcome = outcomes.get(`${a.state}/${a.license}`)!;
        rowsOf.get(`${a.state}/${a.license}`)!.forEach((row, i) => {
          // A number twice in one list is added once; its later rows say it is already watched.
          const said = i === 0 ? outcome : "already watched";
          if (said === "added") added += 1;
          results.set(row, { row: row.row, state: a.state, license: a.license, outcome: said, error: null });
        });
      }
      return {
        rows: rows.map((row) => results.get(row)!),
        added,
        watched: await store.count(),
      };
    },

    /** Waits for the running check and the deliveries due, on any node (tests, benchmarks). */
    settled: () => jobs.idle(),

    /**
     * Stops its jobs here (a check under way goes on at another node, or at the next start); leaves `state` open.
     * Closing twice is closing once: the app's server and the services that own `state` both close it.
     */
    close() {
      if (!closing) {
        closed = true;
        schedule?.stop();
        clearInterval(sweeper);
        closing = jobs.close().finally(() => deliverer.close());
      }
      return closing;
    },
  };
}

export type WatchlistService = Awaited<ReturnType<typeof createWatchlist>>;
