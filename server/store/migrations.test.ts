import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod/mini";
import Database from "better-sqlite3";
import { LicenseResponseSchema, ProvenanceResponseSchema } from "../../src/contract/envelopes.ts";
import { LicenseSchema } from "../../src/contract/license.ts";
import { startServer } from "../service/main.ts";
import { licenseFixture } from "../testing/license-fixture.ts";
import { datasetTables, KEY_FIELDS } from "./dataset-tables.ts";
import { openStateDb } from "../db/state-db.ts";
import { createKeyRepo } from "../service/key-repo.ts";
import { createLicenseRepo } from "./license-repo.ts";
import { migrate, STORE_VERSION, storeVersion } from "./migrations.ts";
import { DatabaseFileError, openDatabase } from "./open-database.ts";
import { replaceState } from "./replace-state.ts";
import { cliCommand } from "../testing/built-cli.ts";

/**
 * The license object's shape (descriptions aside) at each store version. Stored documents are
 * served as written, so a new shape needs a new store version and a migration that rewrites them.
 */
const LICENSE_SHAPE_AT = {
  1: "b627f66463c016526d8a8a4edf831d3ee5703b331d28ad3d41404cf9efeca4f0",
  // Version 2 added where records come from, beside the documents: their shape is unchanged.
  2: "b627f66463c016526d8a8a4edf831d3ee5703b331d28ad3d41404cf9efeca4f0",
  // Version 3 added each license's history, beside the documents.
  3: "b627f66463c016526d8a8a4edf831d3ee5703b331d28ad3d41404cf9efeca4f0",
  // Version 4 added each data set's vocabulary for typo tolerance, beside the documents.
  4: "b627f66463c016526d8a8a4edf831d3ee5703b331d28ad3d41404cf9efeca4f0",
  // Version 5 added each data set's index of whole words, beside the documents.
  5: "b627f66463c016526d8a8a4edf831d3ee5703b331d28ad3d41404cf9efeca4f0",
  // Version 6 marked sources that are partial lists, beside the documents.
  6: "b627f66463c016526d8a8a4edf831d3ee5703b331d28ad3d41404cf9efeca4f0",
  // Version 7 kept the imports it refused, beside the documents.
  7: "b627f66463c016526d8a8a4edf831d3ee5703b331d28ad3d41404cf9efeca4f0",
  // Version 8 kept what each sync found at each agency feed, beside the documents.
  8: "b627f66463c016526d8a8a4edf831d3ee5703b331d28ad3d41404cf9efeca4f0",
  // Version 9 kept where each field of a merged record comes from, beside the documents.
  9: "b627f66463c016526d8a8a4edf831d3ee5703b331d28ad3d41404cf9efeca4f0",
} as const;

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "migrations-"));
  file = join(dir, "licenses.sqlite");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A file with one New York license and a key, written by this code, then set to `version`. */
async function storeAt(version: number): Promise<string> {
  const db = openDatabase(file, { create: true });
  await replaceState(db, { state: "ny", source: "test", asOf: null }, [licenseFixture({ license: "0012345" })]);
  const { key } = await createKeyRepo(openStateDb({ sqlite: db })).create(["ny"]);
  db.pragma(`user_version = ${version}`);
  db.close();
  return key;
}

/**
 * A file as version 1 wrote it (user_version 0 for one from before versions were recorded): its
 * tables, one live New York data set with one license, and a key.
 */
function versionOneStore(version: 0 | 1): void {
  const db = new Database(file);
  migrate(db, 1);
  db.exec(`
    INSERT INTO datasets (id, state, source, as_of, records, created_at, status)
      VALUES (7, 'ny', 'ny-sla', '2016-01-14', 1, '2026-01-02 03:04:05.000000', 'live');
    CREATE TABLE licenses_7 (id INTEGER PRIMARY KEY, license TEXT NOT NULL, doc TEXT NOT NULL, active INTEGER NOT NULL,
      business_key TEXT NOT NULL, owner_key TEXT NOT NULL, address_key TEXT NOT NULL);
  `);
  const doc = {
    object: "license",
    ...licenseFixture({ license: "0012345" }),
    updated_at: "2026-01-02 03:04:05.000000",
  };
  db.prepare(
    `INSERT INTO licenses_7 (license, doc, active, business_key, owner_key, address_key) VALUES (?, ?, 1, '', '', '')`,
  ).run("0012345", JSON.stringify(doc));
  db.pragma(`user_version = ${version}`);
  db.close();
}

function npmRunMigrate() {
  return spawnSync(process.execPath, [...cliCommand("migrate"), "--db", file], { encoding: "utf8" });
}

describe("the store's version", () => {
  it("is recorded in a new file", () => {
    const db = openDatabase(file, { create: true });
    expect(storeVersion(db)).toBe(STORE_VERSION);
    db.close();
  });

  it.each([0, 1] as const)(
    "the service refuses a store at version %i and names the command; after it, the same data is served",
    async (version) => {
      versionOneStore(version);
      const keyDb = new Database(file);
      const key = `ll_${"k".repeat(43)}`;
      keyDb
        .prepare(`INSERT INTO api_keys (hash, states, created_at) VALUES (?, 'ny', '2026-01-02 03:04:05.000000')`)
        .run(createHash("sha256").update(key).digest("hex"));
      keyDb.close();
      const refused = await startServer({ db: file, port: 0, host: "127.0.0.1" }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(DatabaseFileError);
      expect((refused as Error).message).toContain(`run \`npm run migrate -- --db ${file}\``);

      const run = npmRunMigrate();
      expect(run.status).toBe(0);
      expect(run.stderr).toContain(`migrated to store version ${STORE_VERSION}`);
      expect(run.stdout).toContain(`is at store version ${STORE_VERSION}`);

      const { app } = await startServer({ db: file, port: 0, host: "127.0.0.1" });
      const headers = { authorization: `Bearer ${key}` };
      const license = await app.inject({ url: "/v2/license/ny/0012345", headers });
      const provenance = await app.inject({ url: "/v2/provenance/ny/0012345", headers });
      await app.close();
      expect(LicenseResponseSchema.parse(license.json()).data?.license).toBe("0012345");
      // What version 1 knew of the record's source, its adapter and the state's date, is kept.
      expect(ProvenanceResponseSchema.parse(provenance.json()).data).toMatchObject({
        as_of: "2016-01-14",
        source: { agency: "ny-sla", as_of: "2016-01-14" },
      });
    },
  );

  it("a version 4 store gains its index of whole words on migrating, and searches of several words answer", async () => {
    const db = openDatabase(file, { create: true });
    await replaceState(db, { state: "ny", source: "test", asOf: null }, [
      licenseFixture({ license: "0012345", business: "DEAD RABBIT TAVERN", owner: "DRT GROUP LLC" }),
      licenseFixture({ license: "0012346", business: "TAVERN 29", owner: "X" }),
    ]);
    // As version 4 wrote it: no word index beside the trigram index, words of letters only in the vocabulary.
    const tables = datasetTables(db.prepare(`SELECT id FROM datasets`).pluck().get() as number);
    for (const field of KEY_FIELDS) {
      db.exec(
        `DROP TABLE ${tables.wordIndex(field)}; DELETE FROM ${tables.vocabulary(field)} WHERE word GLOB '*[0-9]*';`,
      );
    }
    // Nor any mark of a partial list (version 6).
    db.exec(`ALTER TABLE sources DROP COLUMN partial`);
    // Nor the table of refused imports (version 7).
    db.exec(`DROP TABLE refusals`);
    // Nor the feeds' checks (version 8).
    db.exec(`DROP TABLE feed_checks`);
    // Nor where each field of a record comes from (version 9).
    db.exec(`ALTER TABLE ${tables.rows} DROP COLUMN fields`);
    db.pragma("user_version = 4");
    db.close();

    const migrated = openDatabase(file);
    const licenses = (q: string) =>
      createLicenseRepo(migrated)
        .search({ state: "ny", by: "name", q })
        .map((doc) => (JSON.parse(doc) as { license: string }).license);
    expect(licenses("tavern rabbit")).toEqual(["0012345"]);
    // Found only by the words with digits that version 4 left out of the vocabulary.
    expect(licenses("29 tavern")).toEqual(["0012346"]);
    migrated.close();
  });

  it("a store written by a newer version is refused by the service and the writers alike, and left as it was", async () => {
    await storeAt(STORE_VERSION + 1);
    await expect(startServer({ db: file, port: 0, host: "127.0.0.1" })).rejects.toThrow(
      /written by a newer License Lookup/,
    );
    expect(() => openDatabase(file)).toThrow(/written by a newer License Lookup/);
    const run = npmRunMigrate();
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/newer License Lookup/);
  });

  it("moves on with the contract: a new license shape needs a new store version", () => {
    // Prose about a field is not its shape (a field named `description` is).
    const withoutProse = (key: string, value: unknown) =>
      key === "description" && typeof value === "string" ? undefined : value;
    const shape = createHash("sha256")
      .update(JSON.stringify(z.toJSONSchema(LicenseSchema), withoutProse))
      .digest("hex");
    expect(
      shape,
      "the license object changed shape: bump STORE_VERSION in migrations.ts with a migration that rewrites the stored documents, then record the new shape here",
    ).toBe(LICENSE_SHAPE_AT[STORE_VERSION]);
  });
});
