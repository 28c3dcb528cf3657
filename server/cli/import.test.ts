import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createLicenseRepo } from "../store/license-repo.ts";
import { openDatabase } from "../store/open-database.ts";
import { sharedData, tempFolder } from "../testing/adapter-test-helpers.ts";
import { SOURCE_ADAPTERS } from "../data/sources/adapters.ts";
import { cliCommand } from "../testing/built-cli.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const temp = tempFolder();
afterAll(() => temp.done());

/** Runs `npm run import -- ARGS` as a person would, without a terminal. */
function runImport(...args: string[]) {
  const run = spawnSync(process.execPath, [...cliCommand("import"), ...args], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

// Each case starts a process that compiles the command first, some two: on a busy machine, a minute or more.
describe("npm run import", { timeout: 120_000 }, () => {
  it("prints its usage, listing every source, on --help", () => {
    const run = runImport("--help");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("usage: npm run import -- --db FILE --all DIR");
    expect(run.stdout).toContain(
      "npm run import -- --db FILE --source SOURCE [--as-of YYYY-MM-DD] [--replace] PATH...",
    );
    for (const source of ["ny-sla", "ma-abcc", "nj-abc", "ca-abc"]) expect(run.stdout).toContain(source);
  });

  it("imports a file and sums it up: its date and coverage, rows, records, repairs and skips with where they were", () => {
    const db = temp.path("cli.sqlite");
    const run = runImport("--db", db, "--source", "ny-sla", "--as-of", "2016-01-15", sharedData("ny/nyc_bars.csv"));
    // Nothing but progress, which a slow machine gets every 2 s: no warning, no error.
    expect(run.stderr.split("\n").filter((line) => line && !/^ny-sla: [\d,]+ rows/.test(line))).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("ny-sla: New York State Liquor Authority, into NY");
    expect(run.stdout).toMatch(/as of +2016-01-15 +\(given at import\)/);
    expect(run.stdout).toMatch(/covers +New York City on-premises liquor licenses only/);
    expect(run.stdout).toMatch(/rows read +6,659\n +written +6,657 records\n +repaired +2\n/);
    expect(run.stdout).toMatch(
      /2 +repeated row \(the same license with the same facts\): counted once; first at nyc_bars\.csv:4528, :4910/,
    );
    expect(run.stdout).toMatch(/records +6,657 served for NY now/);
    expect(run.stdout).toMatch(
      /took +[\d.]+ s: rows read, checked and stored in [\d.]+ s \([\d,]+ rows\/s\), records made and indexed in [\d.]+ s/,
    );
    // The coverage table at the end: the state, its records, and the source with its date.
    expect(run.stdout).toMatch(
      /\nNY +6,657 +6,657 +2016-01-15 +New York State Liquor Authority: nyc_bars\.csv +New York City/,
    );
    const opened = openDatabase(db);
    expect(createLicenseRepo(opened).get("ny", "1268007")).toContain('"business":"DEAD RABBIT TAVERN"');
    opened.close();

    const again = runImport("--db", db, "--source", "ny-sla", sharedData("ny/nyc_bars.csv"));
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/already imported \d{4}-\d{2}-\d{2} [\d:.]+ UTC \(same SHA-256\): not read again/);
    expect(again.stdout).toMatch(/records +6,657 served, unchanged/);
  });

  it("with --all, finds every source's files in a folder by their content and imports each state", () => {
    const dir = temp.path("all");
    mkdirSync(join(dir, "somewhere", "deeper"), { recursive: true });
    copyFileSync(sharedData("ny/nyc_bars.csv"), join(dir, "somewhere", "deeper", "renamed.csv"));
    copyFileSync(sharedData("ma/ma_license_list.csv"), join(dir, "ma.csv"));
    writeFileSync(join(dir, "notes.csv"), "Permit,Name\n1,X\n");
    writeFileSync(join(dir, "README.md"), "not data\n");
    const run = runImport("--db", temp.path("all.sqlite"), "--all", dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("ny-sla: New York State Liquor Authority, into NY");
    expect(run.stdout).toContain("ma-abcc: Massachusetts Alcoholic Beverages Control Commission, into MA");
    expect(run.stdout).toContain(`not a known source's layout: ${join(dir, "notes.csv")}`);
    expect(run.stdout).not.toContain("README.md");
    expect(run.stdout).toMatch(/\nstate +records +from it +as of +source +covers\n(MA|NY) /);
    expect(run.stdout).toMatch(/\nNY +6,657 +6,657 +2016-01-14 +New York State Liquor Authority: renamed\.csv/);
  });

  it("exits non-zero naming the file for an unreadable file, an unknown layout, or no usable row", () => {
    const db = temp.path("cli-errors.sqlite");
    const missing = temp.path("missing.csv");
    expect(runImport("--db", db, "--source", "ma-abcc", missing)).toMatchObject({
      code: 1,
      stderr: `error: ${missing}: cannot be read: no such file\n`,
    });

    const other = temp.path("other.csv");
    writeFileSync(other, "Permit,Name\n1,X\n");
    const unknown = runImport("--db", db, "--source", "ma-abcc", other);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`error: ${other}: unknown layout`);
    expect(unknown.stderr).toContain("ABCC active retail licenses: needs columns LICENSE_NO");

    const blank = temp.path("blank.csv");
    writeFileSync(
      blank,
      "LICENSE_NO,BUSINESS_NAME,DBA,LICENSE_TYPE,EXPIRATION_STATUS,EXPIRATION_DATE,LICENSE_ISSUE_DATE,ON_TYPE,OFF_TYPE,ON_CATEGORY,OFF_CATEGORY,LICENSEE_CLASS,ST_NO,ADDRESS1,ADDRESS2,CITY,STATE,ZIP\n",
    );
    const empty = runImport("--db", db, "--source", "ma-abcc", blank);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toBe(
      `error: ${basename(blank)}: has no data rows. The state's existing data was left as it was.\n`,
    );
  });

  it("refuses a list that would stop serving too many licenses, takes it with --accept-shrink, and keeps every file read", () => {
    const lines = readFileSync(sharedData("ma/ma_license_list.csv"), "utf8").split(/\r?\n/);
    const twenty = temp.path("ma-20.csv");
    const ten = temp.path("ma-10.csv");
    writeFileSync(twenty, lines.slice(0, 21).join("\n") + "\n");
    writeFileSync(ten, lines.slice(0, 11).join("\n") + "\n");
    const db = join(temp.path("shrink"), "ma.sqlite");
    mkdirSync(temp.path("shrink"));
    expect(runImport("--db", db, "--source", "ma-abcc", "--as-of", "2026-01-01", twenty).code).toBe(0);

    const refused = runImport("--db", db, "--source", "ma-abcc", "--as-of", "2026-02-01", ten);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `error: ${basename(ten)} would stop serving 10 of the 20 licenses MA serves now (50%, more than the 10% an import may drop unasked)`,
    );
    expect(refused.stderr).toContain(
      "all 20 stay served. If the agency's list really is that much shorter, import it again with --accept-shrink.",
    );

    const accepted = runImport("--db", db, "--source", "ma-abcc", "--as-of", "2026-02-01", "--accept-shrink", ten);
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toMatch(/dropped +10 licenses MA served before are no longer served: 00004-RS-0002, /);
    expect(accepted.stdout).toMatch(/records +10 served for MA now/);

    // The twenty's copy in the archive beside the database imports as the file did.
    const sha256 = createHash("sha256").update(readFileSync(twenty)).digest("hex");
    const kept = join(temp.path("shrink"), "archive", "ma-abcc", `${sha256}.csv`);
    expect(readFileSync(kept)).toEqual(readFileSync(twenty));
    const rerun = runImport(
      "--db",
      temp.path("rerun.sqlite"),
      "--source",
      "ma-abcc",
      "--as-of",
      "2026-01-01",
      "--no-archive",
      kept,
    );
    expect(rerun.code).toBe(0);
    expect(rerun.stdout).toMatch(/records +20 served for MA now/);
    expect(rerun.stdout).not.toContain("kept as");
  });

  it("exits non-zero with a hint for wrong options", () => {
    expect(runImport("--source", "ny-sla", "x.csv")).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("--db FILE is required"),
    });
    expect(runImport("--db", "x.sqlite", "--source", "tx-tabc", "x.csv")).toMatchObject({
      code: 1,
      stderr: `error: unknown --source tx-tabc: use one of ${SOURCE_ADAPTERS.map((a) => a.name).join(", ")}\n`,
    });
    expect(runImport("--db", "x.sqlite", "--source", "ny-sla")).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("no files given"),
    });
    expect(runImport("--db", "x.sqlite", "--source", "ny-sla", "--as-of", "2016-13-01", "x.csv")).toMatchObject({
      code: 1,
      stderr: "error: --as-of must be a date as YYYY-MM-DD, not 2016-13-01\n",
    });
    // A wrong option is found before the database is opened: none was created, or would have been migrated.
    expect(existsSync(join(ROOT, "x.sqlite"))).toBe(false);
  });
});
