import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { tempFolder } from "../../testing/adapter-test-helpers.ts";
import { SyncLockedError, takeSyncLock } from "./sync-lock.ts";

const temp = tempFolder("license-sync-lock-");
afterAll(() => temp.done());

describe("the sync lock", () => {
  it("lets one sync of a database run at a time, and says which process holds it", () => {
    const db = temp.path("one.sqlite");
    const release = takeSyncLock(db);
    expect(readFileSync(`${db}.sync-lock`, "utf8")).toBe(`${process.pid}\n`);
    expect(() => takeSyncLock(db)).toThrow(SyncLockedError);
    expect(() => takeSyncLock(db)).toThrow(
      `another sync of ${db} is running (pid ${process.pid}); this one did nothing.`,
    );
    // Another database is another lock.
    takeSyncLock(temp.path("two.sqlite"))();
    release();
    expect(existsSync(`${db}.sync-lock`)).toBe(false);
    takeSyncLock(db)();
  });

  it("takes over a lock whose process is gone", () => {
    const db = temp.path("stale.sqlite");
    // A pid no process has: past Linux's largest (2^22).
    writeFileSync(`${db}.sync-lock`, "4194305\n");
    const release = takeSyncLock(db);
    expect(readFileSync(`${db}.sync-lock`, "utf8")).toBe(`${process.pid}\n`);
    release();
  });
});
