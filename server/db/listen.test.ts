import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshPostgresUrl } from "../testing/state-backends.ts";
import { listen, retryDelay } from "./listen.ts";

let url: string;
let admin: pg.Client;
beforeAll(async () => {
  url = await freshPostgresUrl("listen");
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
});
afterAll(() => admin.end());

/** Ends this database's listening sessions, as a PostgreSQL restart or a network cut would; how many. */
async function cutListeners(): Promise<number> {
  const { rows } = await admin.query<{ n: number }>(
    `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND query LIKE 'LISTEN%'`,
  );
  return rows[0]!.n;
}

describe("listening on a channel", () => {
  it("hears notifications, reconnects after its connection is cut, says so once, and stops on close", async () => {
    const heard: string[] = [];
    const events: string[] = [];
    const listener = listen(url, "lls_test", {
      onNotification: (payload) => heard.push(payload),
      onListening: (afterOutage) => events.push(afterOutage ? "listening again" : "listening"),
      onLost: () => events.push("lost"),
    });
    try {
      await expect.poll(() => events, { timeout: 5_000 }).toEqual(["listening"]);
      await admin.query("SELECT pg_notify('lls_test', 'one'), pg_notify('lls_other', 'not ours')");
      await expect.poll(() => heard, { timeout: 5_000 }).toEqual(["one"]);

      expect(await cutListeners()).toBe(1);
      // Sent while it is away: not heard, which `onListening` is there to make up for.
      await admin.query("SELECT pg_notify('lls_test', 'missed')");
      await expect.poll(() => events, { timeout: 5_000 }).toEqual(["listening", "lost", "listening again"]);
      await admin.query("SELECT pg_notify('lls_test', 'two')");
      await expect.poll(() => heard.at(-1), { timeout: 5_000 }).toBe("two");
    } finally {
      await listener.close();
    }
    await admin.query("SELECT pg_notify('lls_test', 'after close')");
    expect(await cutListeners()).toBe(0);
    expect(heard).not.toContain("after close");
  });

  it("keeps trying a database that refuses it, and is told once", async () => {
    const events: string[] = [];
    const listener = listen(url.replace(/\/[^/]+$/, "/no_such_database"), "lls_test", {
      onNotification: () => {},
      onListening: () => events.push("listening"),
      onLost: (error) => events.push(error.message),
    });
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    await listener.close();
    expect(events).toEqual([expect.stringContaining("no_such_database")]);
  });

  it("waits longer after each failure, up to half a minute, each wait drawn from its upper half", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((failures) => retryDelay(failures, 1))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
    expect(retryDelay(1, 0)).toBe(500);
  });
});
