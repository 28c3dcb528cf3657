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
import { createDeliverer, type EmailSettings, type WebhookSettings } from "./deliveries.ts";
import { changeAlerts, expiringDigest, expiringKey, licenseLink, type ChainHead } from "./watch-alerts.ts";
import { runCheck } from "./watch-check.ts";
import { createServiceReader, NotCoveredError, type ReadAnswer } from "./service-reader.ts";
import { openWatchStore, type Answer } from "./watch-store.ts";

export interface WatchlistOptions {
  /** The SQLite file (created when absent). */
  file: string;
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
  chainHead?: () => ChainHead | null;
}

const MAX_TIMER_MS = 2 ** 31 - 1;

/** `YYYY-MM-DD` where the server is: the day an "expiring within 30 days" digest belongs to. */
function localDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The team's watchlist: its store, its checks (at start-up, on a schedule, on demand) and its alerts. */
export function createWatchlist({
  file,
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
  const store = openWatchStore(file);
  const reader = createServiceReader(service);
  const deliverer = createDeliverer({ store, webhook, email, retryBaseMs, maxAttempts, now, log });
  const link = (state: string, license: string) => licenseLink(appUrl, state, license);
  let running: { check: WatchCheck; done: Promise<void> } | null = null;
  let nextCheckAt: Date | null = null;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  function finish(check: WatchCheck) {
    const at = now();
    const changes = store.changesOf(check.id).map((c) => ({ ...c, link: link(c.state, c.license) }));
    // Only what the alerts name is read: every entry at 10,000 held the app's other requests for 0.25 s.
    const records = new Map(
      changes.map((c) => [`${c.state}/${c.license}`, store.entry(c.state, c.license)?.record ?? null]),
    );
    const alerts = changeAlerts(check.id, changes, records, { webhook: webhook !== null, email: email !== null });
    const today = localDate(at);
    const digest =
      email && !store.hasDelivery(expiringKey(today))
        ? expiringDigest(store.entries(), today, appUrl, chainHead())
        : null;
    store.finishCheck(check.id, at.toISOString(), digest ? [...alerts, digest] : alerts);
    log(`watchlist: check ${check.id} (${check.trigger}) found ${changes.length} change(s)`);
    deliverer.kick();
  }

  /** Starts a check, or answers the one running; a check a restart interrupted is finished first. */
  function check(trigger: WatchCheck["trigger"]): WatchCheck {
    if (running) return store.unfinishedCheck() ?? running.check;
    const started = store.beginCheck(trigger, now().toISOString());
    const done = runCheck(store, reader, started, { now, stopped: () => closed })
      .then(() => {
        if (!closed) finish(started);
      })
      .catch((error: unknown) => log(`watchlist: check ${started.id} stopped: ${(error as Error).message}`))
      .finally(() => {
        running = null;
      });
    running = { check: started, done };
    return started;
  }

  function schedule() {
    clearTimeout(timer);
    if (closed || checkEveryMs === null) return;
    nextCheckAt = new Date(now().getTime() + checkEveryMs);
    timer = setTimeout(
      () => {
        check("schedule");
        schedule();
      },
      Math.min(checkEveryMs, MAX_TIMER_MS),
    );
  }

  /** The running check, else the last one. */
  const currentCheck = () => store.unfinishedCheck() ?? store.lastCheck();

  if (checkOnStart || store.unfinishedCheck()) check("start-up");
  schedule();
  store.retryPending(now().toISOString());
  deliverer.kick();

  return {
    list(): Watchlist {
      return {
        entries: store.entries(),
        changes: store.unseenChanges().map((c) => ({ ...c, link: link(c.state, c.license) })),
        looked_at: store.lookedAt(),
        check: currentCheck(),
        next_check_at: nextCheckAt && nextCheckAt.toISOString(),
        alerts: { webhook: webhook !== null, email: email !== null, undelivered: store.undelivered() },
        max: MAX_WATCHED,
      };
    },
    entry: (state: string, license: string): WatchEntry | null => store.entry(state, license),
    currentCheck,
    remove: (state: string, license: string) => store.remove(state, license),
    /** Marks seen the changes up to `upTo`; the watched licenses they were of, as the clerk was shown them. */
    markSeen(upTo: number): WatchEntry[] {
      const keys = new Set(
        store
          .unseenChanges()
          .filter((c) => c.id <= upTo)
          .map((c) => `${c.state}/${c.license}`),
      );
      const entries = [...keys].flatMap((key) => {
        const [state, license] = key.split("/") as [string, string];
        return store.entry(state, license) ?? [];
      });
      store.markSeen(upTo, now().toISOString());
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
        for (const [n, rowsOfN] of numbers) {
          if (!store.has(state, n)) fresh.push(n);
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
      const room = Math.max(0, MAX_WATCHED - store.count());
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
      const outcomes = store.add(kept, now().toISOString());
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
        watched: store.count(),
      };
    },

    /** Waits for the running check and the deliveries in flight (tests, benchmarks). */
    async settled() {
      while (running) await running.done;
      await deliverer.idle();
    },

    async close() {
      closed = true;
      clearTimeout(timer);
      await running?.done;
      await deliverer.close();
      store.close();
    },
  };
}

export type WatchlistService = ReturnType<typeof createWatchlist>;
