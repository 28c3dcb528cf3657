import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStateDb } from "../db/state-db.ts";
import { createKeyRepo } from "../service/key-repo.ts";
import { loadSource } from "../store/load-source.ts";
import { openDatabase, type Db } from "../store/open-database.ts";
import { licenseFixture } from "./license-fixture.ts";
import { testSource } from "./temp-service.ts";

/**
 * The machine that imports, for the snapshot tests: a real license file whose New York licenses all carry one
 * word in their names (FIRST, SECOND…), so an answer shows which import it was read from.
 */
export async function importingMachine() {
  const dir = mkdtempSync(join(tmpdir(), "snapshots-"));
  const db: Db = openDatabase(join(dir, "licenses.sqlite"), { create: true });
  const keys = createKeyRepo(openStateDb({ sqlite: db }));
  const { key } = await keys.create(["ny"]);
  return {
    dir,
    db,
    /** A key made on this machine: it must not reach a snapshot. */
    key,
    /** The keys in this file, as a single node reads them (the tests' nodes do, for want of PostgreSQL's). */
    keys,
    /** Replaces New York's licenses with 12 taverns named `${word} TAVERN n`. */
    async importNy(word: string) {
      const records = Array.from({ length: 12 }, (_, i) =>
        licenseFixture({ license: `${word}-${i}`, business: `${word} TAVERN ${i}` }),
      );
      await loadSource(db, { ...testSource("ny"), sha256: `sha256-of-${word}` }, records);
    },
    close() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
