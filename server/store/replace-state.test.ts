import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LicenseSchema } from "../../src/contract/license.ts";
import { licenseFixture } from "../testing/license-fixture.ts";
import type { LicenseRecord } from "./license-record.ts";
import { createLicenseRepo } from "./license-repo.ts";
import { openDatabase, type Db } from "./open-database.ts";
import { RecordRejectedError, replaceState } from "./replace-state.ts";

let dir: string;
let db: Db;
const meta = { state: "ny", source: "test", asOf: null };

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "replace-state-"));
  db = openDatabase(join(dir, "licenses.sqlite"), { create: true });
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const records = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => licenseFixture({ license: `${prefix}${i}`, business: `${prefix} BAR ${i}` }));

describe("openDatabase", () => {
  it("creates the database's folder when asked to create the database", () => {
    const file = join(dir, "not", "yet", "there.sqlite");
    openDatabase(file, { create: true }).close();
    expect(() => openDatabase(file).close()).not.toThrow();
  });
});

describe("replaceState", () => {
  it("serves the old set until the new one is complete, then only the new one", async () => {
    await replaceState(db, meta, records("OLD", 3));
    // A second connection, as the API process would have.
    const reader = openDatabase(join(dir, "licenses.sqlite"));
    const repo = createLicenseRepo(reader);
    let seenMidway: string | null = "unset";
    async function* slowly(): AsyncGenerator<LicenseRecord> {
      yield* records("NEW", 5);
      await new Promise((r) => setTimeout(r, 10));
      seenMidway = repo.get("ny", "OLD0");
      yield* records("MORE", 5);
    }
    await replaceState(db, meta, slowly(), { batchSize: 2 });
    expect(LicenseSchema.parse(JSON.parse(seenMidway)).business).toBe("OLD BAR 0");
    expect(repo.get("ny", "OLD0")).toBeNull();
    expect(LicenseSchema.parse(JSON.parse(repo.get("ny", "MORE4")!)).business).toBe("MORE BAR 4");
    expect(repo.coverage()).toEqual([
      { state: "ny", name: "New York", records: 10, sources: [], feeds: [], last_refusal: null },
    ]);
    reader.close();
  });

  it("leaves the old set live and no left-overs when a load fails", async () => {
    await replaceState(db, meta, records("OLD", 3));
    const tablesBefore = db.prepare(`SELECT count(*) FROM sqlite_master`).pluck().get();
    const duplicate = [...records("NEW", 3), licenseFixture({ license: "NEW1" })];
    await expect(replaceState(db, meta, duplicate, { batchSize: 2 })).rejects.toThrow(RecordRejectedError);
    const repo = createLicenseRepo(db);
    expect(repo.get("ny", "OLD1")).not.toBeNull();
    expect(repo.get("ny", "NEW0")).toBeNull();
    expect(db.prepare(`SELECT count(*) FROM sqlite_master`).pluck().get()).toBe(tablesBefore);
  });

  it("is served at once to a reader on the same connection, even within one event-loop turn", async () => {
    const repo = createLicenseRepo(db);
    expect(repo.has("ny")).toBe(false);
    await replaceState(db, meta, records("NEW", 2));
    expect(repo.has("ny")).toBe(true);
    expect(LicenseSchema.parse(JSON.parse(repo.get("ny", "NEW1")!)).business).toBe("NEW BAR 1");
  });

  it("rejects a record that does not fit the contract, naming the license", async () => {
    const bad = licenseFixture({ license: "BAD1", dates: { ny: { effective: "01/02/2020" } as never } });
    await expect(replaceState(db, meta, [bad])).rejects.toThrow(/BAD1.*dates/);
  });

  it("rejects a record of another state", async () => {
    await expect(replaceState(db, meta, [licenseFixture({ state: "ma", license: "X" })])).rejects.toThrow(/state ma/);
  });

  it("keeps other states untouched", async () => {
    await replaceState(db, { ...meta, state: "ma" }, [licenseFixture({ state: "ma", license: "M1" })]);
    await replaceState(db, meta, records("OLD", 2));
    await replaceState(db, meta, records("NEW", 2));
    const repo = createLicenseRepo(db);
    expect(repo.get("ma", "M1")).not.toBeNull();
    expect(repo.coverage().map((c) => [c.state, c.records])).toEqual([
      ["ma", 1],
      ["ny", 2],
    ]);
  });
});
