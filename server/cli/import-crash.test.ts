import Database from "better-sqlite3";
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import { importSource } from "../data/import/import-source.ts";
import { nySla } from "../data/sources/ny-sla/adapter.ts";
import { sharedData, tempFolder } from "../testing/adapter-test-helpers.ts";
import { createLicenseRepo } from "../store/license-repo.ts";
import { openDatabase } from "../store/open-database.ts";
import { cliCommand } from "../testing/built-cli.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const temp = tempFolder();
afterAll(() => temp.done());

/** The SLA list many times over, each copy's license numbers made new: an import that takes a while. */
function bigNyFile(copies: number): string {
  const text = readFileSync(sharedData("ny/nyc_bars.csv"), "utf8");
  const header = text.slice(0, text.indexOf("\n") + 1);
  const body = text.slice(header.length).trimEnd();
  const path = temp.path("big.csv");
  const parts = [header];
  for (let i = 1; i <= copies; i++) parts.push(body.replace(/^(\d+),/gm, `${i}-$1,`), "\n");
  writeFileSync(path, parts.join(""));
  return path;
}

it("keeps the old data served, and the database sound, when an import is killed mid-way", async () => {
  const file = temp.path("crash.sqlite");
  const db = openDatabase(file, { create: true });
  await importSource(db, nySla, [sharedData("ny/nyc_bars.csv")], { asOf: "2016-01-15" });
  db.close();
  const big = bigNyFile(10);

  const child = spawn(
    process.execPath,
    // Its license numbers are all new, so it would stop serving every one the state serves: accepted, to get it going.
    [
      ...cliCommand("import"),
      "--db",
      file,
      "--source",
      "ny-sla",
      "--as-of",
      "2016-02-01",
      "--accept-shrink",
      "--no-archive",
      big,
    ],
    {
      cwd: ROOT,
      stdio: "ignore",
    },
  );
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));

  // Kill it once the new set is well under way: batches of rows committed to its own tables.
  const watcher = new Database(file, { readonly: true, fileMustExist: true });
  let written = 0;
  for (const started = Date.now(); written < 20_000; await new Promise((r) => setTimeout(r, 10))) {
    if (Date.now() - started > 100_000) throw new Error("the import never got going");
    const loading = watcher
      .prepare("SELECT id FROM datasets WHERE state = 'ny' AND status = 'loading'")
      .pluck()
      .get() as number | undefined;
    if (loading !== undefined)
      written = watcher.prepare(`SELECT count(*) FROM licenses_${loading}`).pluck().get() as number;
  }
  watcher.close();
  child.kill("SIGKILL");
  expect(await exited).toBe("SIGKILL");

  const after = openDatabase(file);
  expect(after.pragma("integrity_check", { simple: true })).toBe("ok");
  const licenses = createLicenseRepo(after);
  expect(licenses.coverage()).toMatchObject([
    {
      state: "ny",
      name: "New York",
      records: 6657,
      sources: [{ file: "nyc_bars.csv", as_of: "2016-01-15", records: 6657 }],
    },
  ]);
  expect(licenses.provenance("ny", "1275754")).toMatchObject({ as_of: "2016-01-15", source: { file: "nyc_bars.csv" } });
  expect(licenses.get("ny", "1275754")).toContain('"line_2":"1ST FLOOR"');
  expect(licenses.get("ny", "1-1275754")).toBeNull();

  // The next import clears what the killed one left behind: its half-made records, its source and what it said.
  await importSource(after, nySla, [sharedData("ny/NYS_Liquor_Authority_New_Applications_Received.csv")]);
  expect(after.prepare("SELECT count(*) FROM datasets WHERE status <> 'live'").pluck().get()).toBe(0);
  expect(after.prepare("SELECT file FROM sources ORDER BY id").pluck().all()).toEqual([
    "nyc_bars.csv",
    "NYS_Liquor_Authority_New_Applications_Received.csv",
  ]);
  expect(
    after.prepare("SELECT count(*) FROM observations WHERE source_id NOT IN (SELECT id FROM sources)").pluck().get(),
  ).toBe(0);
  expect(after.pragma("integrity_check", { simple: true })).toBe("ok");
  after.close();
}, 120_000);
