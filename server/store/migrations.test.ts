import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod/mini";
import { LicenseResponseSchema } from "../../src/contract/envelopes.ts";
import { LicenseSchema } from "../../src/contract/license.ts";
import { startServer } from "../main.ts";
import { licenseFixture } from "../testing/license-fixture.ts";
import { createKeyRepo } from "./key-repo.ts";
import { STORE_VERSION, storeVersion } from "./migrations.ts";
import { DatabaseFileError, openDatabase } from "./open-database.ts";
import { replaceState } from "./replace-state.ts";

/**
 * The license object's shape (descriptions aside) at each store version. Stored documents are
 * served as written, so a new shape needs a new store version and a migration that rewrites them.
 */
const LICENSE_SHAPE_AT = { 1: "b627f66463c016526d8a8a4edf831d3ee5703b331d28ad3d41404cf9efeca4f0" } as const;

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
  const { key } = createKeyRepo(db).create(["ny"]);
  db.pragma(`user_version = ${version}`);
  db.close();
  return key;
}

function npmRunMigrate() {
  return spawnSync(process.execPath, ["--import", "tsx", "server/cli/migrate.ts", "--db", file], { encoding: "utf8" });
}

describe("the store's version", () => {
  it("is recorded in a new file", () => {
    const db = openDatabase(file, { create: true });
    expect(storeVersion(db)).toBe(STORE_VERSION);
    db.close();
  });

  it("the service refuses an older store and names the command; after it, the same data is served", async () => {
    // A file from before versions were recorded: today's tables, user_version 0.
    const key = await storeAt(0);
    const refused = await startServer({ db: file, port: 0, host: "127.0.0.1" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DatabaseFileError);
    expect((refused as Error).message).toContain(`run \`npm run migrate -- --db ${file}\``);

    const run = npmRunMigrate();
    expect(run.status).toBe(0);
    expect(run.stderr).toContain(`migrated to store version 1`);
    expect(run.stdout).toContain(`is at store version ${STORE_VERSION}`);

    const { app } = await startServer({ db: file, port: 0, host: "127.0.0.1" });
    const response = await app.inject({ url: "/v2/license/ny/0012345", headers: { authorization: `Bearer ${key}` } });
    await app.close();
    expect(LicenseResponseSchema.parse(response.json()).data?.license).toBe("0012345");
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
