import type { StateDb } from "../db/state-db.ts";
import { createInProcessJobs } from "./in-process-jobs.ts";
import { startPgBossJobs } from "./pg-boss-jobs.ts";

/**
 * Work done in the background, once: in this process by default (SQLite: one node), or through pg-boss on
 * PostgreSQL, where each job runs on exactly one node at a time, and a job whose node died runs again on another
 * once its lease ends. A handler that throws is run again later (pg-boss) or logged (in-process).
 */
export interface JobQueue {
  /** How long a node holds a job before another may take it up (ms); null in-process, where no other node is. */
  readonly leaseMs: number | null;
  /** Runs `handler` for each job of `name`; call once per name, before its first job is due. */
  work<T extends object>(name: string, handler: (data: T) => Promise<void>): Promise<void>;
  /**
   * Queues a job of `name`, after `afterMs`. Jobs of one `key` run one at a time, and one waits at most: sending
   * while one of that key waits is nothing, sending while one runs queues one to run after it.
   */
  send(name: string, key: string, data: object, options?: { afterMs?: number }): Promise<void>;
  /** A job of `name` every `everyMs`, once across nodes however many ask; the time of the next one. */
  every(name: string, everyMs: number, data: object): Recurring;
  /** Settles once no job runs and none is due (tests, benchmarks). */
  idle(): Promise<void>;
  /** Stops taking jobs, lets the running ones end (a handler should end soon when told to stop), and lets go. */
  close(): Promise<void>;
}

export interface Recurring {
  next(): Date;
  stop(): void;
}

/** Seconds a node holds a job (WATCH_JOB_LEASE_SECONDS): a node that died is replaced within about 1.5 times this. */
export const DEFAULT_LEASE_SECONDS = 60;

export interface JobQueueOptions {
  leaseSeconds?: number;
  log?: (line: string) => void;
}

/** The queue for this state database: pg-boss on its PostgreSQL pool, else this process's timers. */
export async function openJobQueue(state: StateDb, options: JobQueueOptions = {}): Promise<JobQueue> {
  return state.pool ? startPgBossJobs(state.pool, options) : createInProcessJobs(options);
}
