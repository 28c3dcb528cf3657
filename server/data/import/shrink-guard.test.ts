import { readFileSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLicenseRepo } from "../../store/license-repo.ts";
import { openDatabase, type Db } from "../../store/open-database.ts";
import { createRefusalsRepo } from "../../store/refusals-repo.ts";
import { sharedData, tempFolder } from "../../testing/adapter-test-helpers.ts";
import { importSource } from "./import-source.ts";
import { maAbcc } from "../sources/ma-abcc/adapter.ts";
import { ImportRefusedError } from "./shrink-guard.ts";

const NOW = () => new Date("2026-05-02T10:00:00Z");
const temp = tempFolder();
afterAll(() => temp.done());

/** The real ABCC list's header and its first `rows` licenses: a hand-made roster in ABCC's layout. */
function roster(name: string, rows: number): string {
  const lines = readFileSync(sharedData("ma/ma_license_list.csv"), "utf8").split(/\r?\n/);
  const path = temp.path(name);
  writeFileSync(path, lines.slice(0, rows + 1).join("\n") + "\n");
  return path;
}
const TWENTY = roster("ma-20.csv", 20);
const TEN = roster("ma-10.csv", 10);
const EIGHTEEN = roster("ma-18.csv", 18);

let db: Db;
beforeEach(() => {
  db = openDatabase(temp.path(`shrink-${Math.random().toString(36).slice(2)}.sqlite`), { create: true });
});
afterEach(() => db.close());

const served = () =>
  createLicenseRepo(db)
    .coverage()
    .find((c) => c.state === "ma")?.records ?? 0;
const isServed = (license: string) => createLicenseRepo(db).get("ma", license) !== null;

describe("the shrink guard", () => {
  it("refuses a newer list that would stop serving half the state's licenses: nothing changes, the refusal is kept", async () => {
    await importSource(db, maAbcc, [TWENTY], { asOf: "2026-01-01", now: NOW });
    expect(served()).toBe(20);

    const refused = await importSource(db, maAbcc, [TEN], { asOf: "2026-02-01", now: NOW }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ImportRefusedError);
    const message = (refused as Error).message;
    expect(message).toContain(
      `${basename(TEN)} would stop serving 10 of the 20 licenses MA serves now (50%, more than the 10%`,
    );
    expect(message).toContain(
      "such as 00004-RS-0002, 00016-RS-0002, 00025-PK-0002, 00027-PK-0002, 00031-PK-0002 and 5 more. ",
    );
    expect(message).toContain("import it again with --accept-shrink");

    expect(served()).toBe(20);
    expect(isServed("04042-RS-0002")).toBe(true);
    // The file just read is not kept as a source: the state's sources are the twenty's alone.
    expect(
      createLicenseRepo(db)
        .coverage()
        .find((c) => c.state === "ma")
        ?.sources.map((s) => s.file),
    ).toEqual(["ma-20.csv"]);
    expect(createRefusalsRepo(db).list("ma")).toEqual([
      expect.objectContaining({
        state: "ma",
        adapter: "ma-abcc",
        file: "ma-10.csv",
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        refused_at: "2026-05-02 10:00:00.000000",
        reason: message,
      }),
    ]);
  });

  it("with --accept-shrink, takes the shorter list and says how many licenses stop being served", async () => {
    await importSource(db, maAbcc, [TWENTY], { asOf: "2026-01-01", now: NOW });
    const result = await importSource(db, maAbcc, [TEN], { asOf: "2026-02-01", now: NOW, acceptShrink: true });
    expect(result.dropped).toEqual({
      count: 10,
      examples: ["00004-RS-0002", "00016-RS-0002", "00025-PK-0002", "00027-PK-0002", "00031-PK-0002"],
    });
    expect(served()).toBe(10);
    expect(isServed("04042-RS-0002")).toBe(false);
    expect(createRefusalsRepo(db).list("ma")).toEqual([]);
  });

  it("lets a list drop up to the share allowed, and --max-shrink sets that share", async () => {
    await importSource(db, maAbcc, [TWENTY], { asOf: "2026-01-01", now: NOW });
    const result = await importSource(db, maAbcc, [EIGHTEEN], { asOf: "2026-02-01", now: NOW });
    expect(result.dropped.count).toBe(2);
    expect(served()).toBe(18);

    await expect(importSource(db, maAbcc, [TEN], { asOf: "2026-03-01", now: NOW, maxShrink: 40 })).rejects.toThrow(
      "would stop serving 8 of the 18 licenses MA serves now (44%, more than the 40%",
    );
    await importSource(db, maAbcc, [TEN], { asOf: "2026-03-01", now: NOW, maxShrink: 50 });
    expect(served()).toBe(10);
  });

  it("is no shrink for a state with no records yet", async () => {
    const result = await importSource(db, maAbcc, [TEN], { asOf: "2026-02-01", now: NOW });
    expect(result.dropped.count).toBe(0);
    expect(served()).toBe(10);
  });

  it("refuses and records a file without one usable row", async () => {
    await importSource(db, maAbcc, [TWENTY], { asOf: "2026-01-01", now: NOW });
    const empty = roster("ma-empty.csv", 0);
    await expect(importSource(db, maAbcc, [empty], { now: NOW })).rejects.toThrow(ImportRefusedError);
    expect(served()).toBe(20);
    expect(createRefusalsRepo(db).list("ma")).toEqual([
      expect.objectContaining({
        file: "ma-empty.csv",
        reason: `${basename(empty)}: has no data rows. The state's existing data was left as it was.`,
      }),
    ]);
  });
});
