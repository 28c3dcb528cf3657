import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { buildApp, type AppOptions } from "../service/app.ts";
import { readInTurnSnapshots } from "../store/change-watch.ts";
import { openStateDb } from "../db/state-db.ts";
import { createKeyRepo } from "../service/key-repo.ts";
import type { LicenseRecord } from "../store/license-record.ts";
import { createLicenseRepo } from "../store/license-repo.ts";
import { openDatabase } from "../store/open-database.ts";
import { loadSource } from "../store/load-source.ts";
import type { NewSource } from "../store/sources-repo.ts";

/** A real SQLite file in a temporary folder, seeded through the store's own writer, and the app over it. */
export async function tempService(
  data: Record<string, LicenseRecord[]>,
  options: Pick<AppOptions, "rateLimit" | "logger" | "readiness"> = {},
) {
  const dir = mkdtempSync(join(tmpdir(), "license-lookup-test-"));
  const file = join(dir, "licenses.sqlite");
  const db = openDatabase(file, { create: true });
  for (const [state, records] of Object.entries(data)) await loadSource(db, testSource(state), records);
  // The app reads on a connection of its own in turn snapshots, as startServer's does; the test
  // writes (keys, imports) on the first, as `npm run keys` and `npm run import` would.
  const serving = openDatabase(file);
  readInTurnSnapshots(serving);
  const licenses = createLicenseRepo(serving);
  const keys = createKeyRepo(openStateDb({ sqlite: db }));
  // Tests make many requests a second with one key; the limiter has tests of its own.
  const app = buildApp({
    licenses,
    keys: createKeyRepo(openStateDb({ sqlite: serving })),
    rateLimit: false,
    ...options,
  });
  return {
    app,
    db,
    file,
    licenses,
    keys,
    /**
     * A fresh key for these states, and the header that presents it. Like a key made with
     * `npm run keys`, the app sees it from its next event-loop turn on: this waits for one.
     */
    async keyFor(states: string[]) {
      const { id, key } = await keys.create(states);
      await nextTurn();
      return { id, key, headers: { authorization: `Bearer ${key}` } };
    },
    /** Revokes a key; like `npm run keys -- revoke`, the app sees it from its next turn on. */
    async revoke(id: number) {
      await keys.revoke(id);
      await nextTurn();
    },
    async close() {
      await app.close();
      serving.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The source a test's fixtures stand for, as a real file's would read. */
export function testSource(state: string): NewSource {
  return {
    state,
    adapter: "test",
    family: "test",
    kind: "roster",
    agency: "Test Licensing Authority",
    title: "Test license list",
    coverage: "the licenses a test made",
    file: "test-licenses.csv",
    sha256: `sha256-of-test-licenses-${state}`,
    bytes: 1,
    asOf: "2026-01-15",
    asOfFrom: "stated in the file",
  };
}
