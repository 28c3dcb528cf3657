import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { licenseRecord } from "../testing/fake-license-service.ts";
import { openAppDatabase } from "./app-db.ts";
import { openWatchStore } from "./watchlist/watch-store.ts";

const dir = mkdtempSync(join(tmpdir(), "app-db-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the app's database", () => {
  it("takes over a watchlist file of its own from before, once, losing nothing and leaving the old file as it was", () => {
    const old = join(dir, "watchlist.sqlite");
    const before = openWatchStore(old);
    before.add(
      ["0012345", "0099999"].map((license) => ({
        state: "ny",
        license,
        outcome: "found" as const,
        record: licenseRecord("ny", license),
        provenance: null,
      })),
      "2026-11-01T10:00:00.000Z",
    );
    const check = before.beginCheck("schedule", "2026-11-02T10:00:00.000Z");
    before.recordAnswers(
      check.id,
      "2026-11-02T10:00:01.000Z",
      [],
      [{ state: "ny", license: "0012345", field: "status", from: "Active", to: "Expired" }],
      null,
    );
    before.close();
    const size = statSync(old).size;

    const file = join(dir, "app.sqlite");
    const lines: string[] = [];
    openAppDatabase(file, { watchDb: old, log: (line) => lines.push(line) }).close();
    openAppDatabase(file, { watchDb: old, log: (line) => lines.push(line) }).close();
    expect(lines).toEqual([`Took over the watchlist of ${old} (2 licenses); that file is no longer read.`]);

    const after = openWatchStore(file);
    expect(after.entries().map((e) => [e.license, e.record?.business])).toEqual([
      ["0012345", "BUSINESS 0012345"],
      ["0099999", "BUSINESS 0099999"],
    ]);
    expect(after.unseenChanges()).toMatchObject([{ license: "0012345", field: "status", to: "Expired" }]);
    expect(after.lastCheck()).toMatchObject({ id: check.id, trigger: "schedule" });
    after.close();
    expect(statSync(old).size).toBe(size);
  });
});
