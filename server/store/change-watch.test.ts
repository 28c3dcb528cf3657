import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { licenseFixture } from "../testing/license-fixture.ts";
import { readInTurnSnapshots } from "./change-watch.ts";
import { openStateDb } from "../db/state-db.ts";
import { createKeyRepo } from "../service/key-repo.ts";
import { createLicenseRepo } from "./license-repo.ts";
import { openDatabase, type Db } from "./open-database.ts";
import { replaceState } from "./replace-state.ts";

let dir: string;
let writer: Db;
let server: Db;
const file = () => join(dir, "licenses.sqlite");
const meta = { state: "ny", source: "test", asOf: null };
const bar = (business: string) => licenseFixture({ license: "0012345", business });

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "change-watch-"));
  writer = openDatabase(file(), { create: true });
  await replaceState(writer, meta, [bar("OLD TAVERN")]);
  // The API's connection, as startServer opens it.
  server = openDatabase(file());
  readInTurnSnapshots(server);
});
afterEach(() => {
  if (server.open) server.close();
  writer.close();
  rmSync(dir, { recursive: true, force: true });
});

const businessOf = (doc: string | null) => (doc === null ? null : (JSON.parse(doc) as { business: string }).business);

describe("reads in turn snapshots (the API's connection)", () => {
  it("answers one turn from one state of the data, and shows an import from the next turn on", async () => {
    const repo = createLicenseRepo(server);
    expect(businessOf(repo.get("ny", "0012345"))).toBe("OLD TAVERN");
    await replaceState(writer, meta, [bar("NEW TAVERN")]);

    // replaceState awaited nothing that ends a turn here; a new turn then sees the new set.
    await nextTurn();
    expect(businessOf(repo.get("ny", "0012345"))).toBe("NEW TAVERN");
    expect(repo.search({ state: "ny", by: "name", q: "new tavern" }).map(businessOf)).toEqual(["NEW TAVERN"]);
  });

  it("reads every request of a turn from the one state the turn began with", async () => {
    const repo = createLicenseRepo(server);
    expect(businessOf(repo.get("ny", "0012345"))).toBe("OLD TAVERN");
    await replaceState(writer, meta, [bar("NEW TAVERN")]);
    // The import committed and dropped the old tables, yet this turn's reads cannot mix the two.
    expect(repo.search({ state: "ny", by: "name", q: "tavern" }).map(businessOf)).toEqual(["OLD TAVERN"]);
    await nextTurn();
    expect(repo.search({ state: "ny", by: "name", q: "tavern" }).map(businessOf)).toEqual(["NEW TAVERN"]);
  });

  it("holds no transaction past the turn, so an import can checkpoint the whole log", async () => {
    // PASSIVE: as far as readers allow, without waiting for them.
    const uncopied = () => {
      const [{ log, checkpointed }] = writer.pragma("wal_checkpoint(PASSIVE)") as [
        { log: number; checkpointed: number },
      ];
      return log - checkpointed;
    };
    createLicenseRepo(server).get("ny", "0012345");
    await replaceState(writer, meta, [bar("NEW TAVERN")]);
    expect(uncopied()).toBeGreaterThan(0); // the turn's snapshot still pins the log
    await nextTurn();
    expect(server.inTransaction).toBe(false);
    expect(uncopied()).toBe(0);
  });

  it("refuses writes on the serving connection instead of holding them to the turn's end", async () => {
    await expect(createKeyRepo(openStateDb({ sqlite: server })).create(["ny"])).rejects.toThrow(
      /readonly|read-only|query_only/i,
    );
  });

  it("ends quietly when the connection closes within a turn", async () => {
    createLicenseRepo(server).get("ny", "0012345");
    server.close();
    await nextTurn();
    expect(server.open).toBe(false);
  });
});
