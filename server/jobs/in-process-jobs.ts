import { setTimeout as sleep } from "node:timers/promises";
import type { JobQueue, JobQueueOptions, Recurring } from "./job-queue.ts";

const MAX_TIMER_MS = 2 ** 31 - 1;

interface Waiting {
  timer: NodeJS.Timeout;
  dueAt: number;
}

/** The embedded default: jobs on this process's timers, as the app has always run them on one node. */
export function createInProcessJobs({ log = () => {} }: JobQueueOptions = {}): JobQueue {
  const handlers = new Map<string, (data: object) => Promise<void>>();
  const waiting = new Map<string, Waiting>();
  const running = new Map<string, Promise<void>>();
  const recurring = new Set<NodeJS.Timeout>();
  let closed = false;

  async function run(name: string, id: string, data: object) {
    // One of a key at a time: a job sent while its key ran waits for that one.
    while (running.has(id)) await running.get(id);
    if (closed) return;
    const handler = handlers.get(name);
    if (!handler) return log(`jobs: no handler for ${name}: call work() before its first job is due`);
    const done = handler(data)
      .catch((error: unknown) =>
        log(`jobs: ${name} (${id.slice(name.length + 1)}) stopped: ${(error as Error).message}`),
      )
      .finally(() => running.delete(id));
    running.set(id, done);
    await done;
  }

  const queue: JobQueue = {
    leaseMs: null,
    work: <T extends object>(name: string, handler: (data: T) => Promise<void>) => {
      handlers.set(name, handler as (data: object) => Promise<void>);
      return Promise.resolve();
    },
    send(name, key, data, { afterMs = 0 } = {}) {
      const id = `${name}:${key}`;
      if (closed || waiting.has(id)) return Promise.resolve();
      const wait = Math.min(Math.max(0, afterMs), MAX_TIMER_MS);
      const timer = setTimeout(() => {
        waiting.delete(id);
        void run(name, id, data);
      }, wait);
      waiting.set(id, { timer, dueAt: Date.now() + wait });
      return Promise.resolve();
    },
    every(name, everyMs, data): Recurring {
      let nextAt = new Date(Date.now() + everyMs);
      let timer: NodeJS.Timeout;
      const arm = () => {
        nextAt = new Date(Date.now() + everyMs);
        timer = setTimeout(
          () => {
            recurring.delete(timer);
            void queue.send(name, "every", data);
            if (!closed) arm();
          },
          Math.min(everyMs, MAX_TIMER_MS),
        );
        recurring.add(timer);
      };
      arm();
      return {
        next: () => nextAt,
        stop: () => {
          clearTimeout(timer);
          recurring.delete(timer);
        },
      };
    },
    async idle() {
      const due = () => [...waiting.values()].some((w) => w.dueAt <= Date.now());
      while (running.size > 0 || due()) {
        await Promise.race([...running.values(), sleep(5)]);
      }
    },
    async close() {
      closed = true;
      for (const timer of recurring) clearTimeout(timer);
      for (const { timer } of waiting.values()) clearTimeout(timer);
      waiting.clear();
      while (running.size > 0) await Promise.all(running.values());
    },
  };
  return queue;
}
