import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type pg from "pg";
import PgBoss from "pg-boss";
import { withLock } from "../db/advisory-lock.ts";
import { DEFAULT_LEASE_SECONDS, type JobQueue, type JobQueueOptions, type Recurring } from "./job-queue.ts";

const MAX_TIMER_MS = 2 ** 31 - 1;

/** A UUID named by a recurring job's slot: every node that sends that slot's job sends the same id, stored once. */
function slotId(name: string, slotStart: number): string {
  const h = createHash("sha256").update(`${name}@${slotStart}`).digest("hex");
  const variant = ((parseInt(h[16]!, 16) & 3) | 8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * Jobs across nodes through pg-boss (its own schema, `pgboss`, on the state database's pool). Each queue is
 * "stately": per key, one job waits and one runs at a time. pg-boss has no heartbeat: a job is its node's for
 * the lease, then another node may take it, so a handler must end (or hand over the rest as a new job) within it.
 */
export async function startPgBossJobs(
  pool: pg.Pool,
  { leaseSeconds = DEFAULT_LEASE_SECONDS, log = () => {} }: JobQueueOptions = {},
): Promise<JobQueue> {
  const lease = Math.max(1, Math.round(leaseSeconds));
  const boss = new PgBoss({
    db: { executeSql: (text, values) => pool.query(text, values) },
    expireInSeconds: lease,
    // A job whose node died (or that threw) runs again elsewhere: soon, a few times over.
    retryLimit: 10,
    retryDelay: 1,
    retryBackoff: true,
    // Expired jobs are found by this sweep: twice a lease, so a dead node's job is taken up within 1.5 leases.
    maintenanceIntervalSeconds: Math.max(1, Math.min(120, Math.round(lease / 2))),
    // No cron: recurring jobs are sent by each node's timer, once a slot (slotId).
    schedule: false,
  });
  boss.on("error", (error) => log(`jobs: ${error.message}`));
  // Two nodes starting at once both create pg-boss's schema and its queues, and collide: they take turns.
  await withLock(pool, "lls:pg-boss", () => boss.start());

  const queues = new Map<string, Promise<void>>();
  const workers = new Map<string, string>();
  const timers = new Set<NodeJS.Timeout>();
  let running = 0;
  let closed = false;
  const queue = (name: string) => {
    let made = queues.get(name);
    if (!made) {
      made = withLock(pool, "lls:pg-boss", () => boss.createQueue(name, { name, policy: "stately" }));
      queues.set(name, made);
    }
    return made;
  };
  const send = async (name: string, key: string, data: object, options: PgBoss.SendOptions = {}) => {
    await queue(name);
    await boss.send(name, data, { ...options, singletonKey: key });
    // This node's worker asks now rather than at its next poll.
    const worker = workers.get(name);
    if (worker && !options.startAfter) boss.notifyWorker(worker);
  };

  return {
    leaseMs: lease * 1000,
    async work<T extends object>(name: string, handler: (data: T) => Promise<void>) {
      await queue(name);
      const id = await boss.work<T>(name, { batchSize: 1, pollingIntervalSeconds: 1 }, async ([job]) => {
        running += 1;
        try {
          await handler(job!.data);
        } finally {
          running -= 1;
        }
      });
      workers.set(name, id);
    },
    send: (name, key, data, { afterMs = 0 } = {}) =>
      send(name, key, data, afterMs > 0 ? { startAfter: afterMs / 1000 } : {}),
    every(name, everyMs, data): Recurring {
      // Slots from the epoch: every node names the same ones. A node sends a little after a slot begins, so
      // that clocks a few seconds apart still agree which slot it is.
      const grace = Math.min(60_000, Math.floor(everyMs / 10));
      let nextAt = 0;
      let timer: NodeJS.Timeout;
      const arm = () => {
        const slot = (Math.floor((Date.now() - grace) / everyMs) + 1) * everyMs;
        nextAt = slot + grace;
        timer = setTimeout(
          () => {
            timers.delete(timer);
            if (closed) return;
            send(name, "every", data, { id: slotId(name, slot) }).catch((error: Error) =>
              log(`jobs: could not send ${name}: ${error.message}`),
            );
            arm();
          },
          Math.min(Math.max(0, nextAt - Date.now()), MAX_TIMER_MS),
        );
        timers.add(timer);
      };
      arm();
      return {
        next: () => new Date(nextAt),
        stop: () => {
          clearTimeout(timer);
          timers.delete(timer);
        },
      };
    },
    async idle() {
      const names = [...queues.keys()];
      for (;;) {
        // pg-boss has no call for "due now": its job table is read directly, for tests only.
        const { rows } = await pool.query<{ n: number }>(
          `SELECT count(*) AS n FROM pgboss.job WHERE name = ANY($1)
             AND (state = 'active' OR (state IN ('created', 'retry') AND start_after <= now()))`,
          [names],
        );
        if (running === 0 && rows[0]!.n === 0) return;
        await sleep(25);
      }
    },
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      await boss.stop({ graceful: true, timeout: 10_000, close: false });
    },
  };
}
