import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { migrateStateDb, openStateDb } from "../db/state-db.ts";
import { licenseRecord } from "../testing/fake-license-service.ts";
import { migrateAppWatchlist, openAppDatabase } from "./app-db.ts";
import { openWatchStore, WATCH_MIGRATIONS } from "./watchlist/watch-store.ts";

const dir = mkdtempSync(join(tmpdir(), "app-db-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the app's database", () => {
  it("takes over a watchlist file of its own from before, once, losing nothing and leaving the old file as it was", async () => {
    const old = join(dir, "watchlist.sqlite");
    // The watchlist's file as it was: its first tables, before the app's database held it.
    const oldState = openStateDb({ file: old });
    await migrateStateDb(oldState, "old", { "2026-11-26-watchlist": WATCH_MIGRATIONS["2026-11-26-watchlist"]! });
    const before = openWatchStore(oldState);
    await before.add(
      ["0012345", "0099999"].map((license) => ({
        state: "ny",
        license,
        outcome: "found" as const,
        record: licenseRecord("ny", license),
        provenance: null,
      })),
      "2026-11-01T10:00:00.000Z",
    );
    const check = await before.beginCheck("schedule", "2026-11-02T10:00:00.000Z");
    await before.recordAnswers(
      check.id,
      "2026-11-02T10:00:01.000Z",
      [{ state: "ny", license: "0012345", outcome: "found", record: licenseRecord("ny", "0012345"), provenance: null }],
      [{ state: "ny", license: "0012345", field: "status", from: "Active", to: "Expired" }],
      null,
    );
    await oldState.close();
    const size = statSync(old).size;

    const file = join(dir, "app.sqlite");
    const lines: string[] = [];
    for (let i = 0; i < 2; i++) {
      const db = openAppDatabase(file);
      await migrateAppWatchlist(openStateDb({ sqlite: db }), { watchDb: old, log: (line) => lines.push(line) });
      db.close();
    }
    expect(lines).toEqual([`Took over the watchlist of ${old} (2 licenses); that file is no longer read.`]);

    const db = openAppDatabase(file);
    const after = openWatchStore(openStateDb({ sqlite: db }));
    expect((await after.entries()).map((e) => [e.license, e.record?.business])).toEqual([
      ["0012345", "BUSINESS 0012345"],
      ["0099999", "BUSINESS 0099999"],
    ]);
    expect(await after.unseenChanges()).toMatchObject([{ license: "0012345", field: "status", to: "Expired" }]);
    expect(await after.lastCheck()).toMatchObject({ id: check.id, trigger: "schedule" });
    // The check it left open is the one a start resumes.
    expect(await after.beginCheck("start-up", "2026-11-03T10:00:00.000Z")).toMatchObject({ id: check.id });
    db.close();
    expect(statSync(old).size).toBe(size);
  });
});
