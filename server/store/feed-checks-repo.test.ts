import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { licenseFixture } from "../testing/license-fixture.ts";
import { createFeedChecksRepo } from "./feed-checks-repo.ts";
import { createLicenseRepo } from "./license-repo.ts";
import { openDatabase, type Db } from "./open-database.ts";
import { createRefusalsRepo } from "./refusals-repo.ts";
import { replaceState } from "./replace-state.ts";

let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "feed-checks-"));
  db = openDatabase(join(dir, "lls.sqlite"), { create: true });
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const feed = { feed: "ny-sla/retail", state: "ny", adapter: "ny-sla", url: "https://data.ny.gov/x.csv" };

describe("a state's data health in its coverage", () => {
  it("shows each feed's last check, keeps the last change and the last good validators through a failure, and the newest refusal", async () => {
    await replaceState(db, { state: "ny", source: "test", asOf: null }, [licenseFixture({ license: "0012345" })]);
    const checks = createFeedChecksRepo(db);
    const licenses = createLicenseRepo(db);
    expect(licenses.coverage()[0]).toMatchObject({ feeds: [], last_refusal: null });

    checks.record(
      { ...feed, outcome: "changed", detail: "new rows", validators: { etag: '"a"' } },
      new Date("2026-11-01T06:00:00Z"),
    );
    checks.record({ ...feed, outcome: "failed", detail: "no answer within 60 s" }, new Date("2026-11-01T12:00:00Z"));
    createRefusalsRepo(db).record(
      { state: "ny", adapter: "ny-sla", file: "x.csv", sha256: "ab".repeat(32), reason: "half the licenses would go" },
      new Date("2026-11-01T18:00:00Z"),
    );

    expect(checks.get("ny-sla/retail")?.validators).toEqual({ etag: '"a"' });
    const [ny] = licenses.coverage();
    expect(ny!.feeds).toEqual([
      {
        feed: "ny-sla/retail",
        url: "https://data.ny.gov/x.csv",
        checked_at: "2026-11-01 12:00:00.000000",
        outcome: "failed",
        detail: "no answer within 60 s",
        changed_at: "2026-11-01 06:00:00.000000",
      },
    ]);
    expect(ny!.last_refusal).toEqual({
      refused_at: "2026-11-01 18:00:00.000000",
      file: "x.csv",
      sha256: "ab".repeat(32),
      reason: "half the licenses would go",
    });
  });
});
