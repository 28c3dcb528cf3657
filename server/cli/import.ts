import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { findSourceAdapter, SOURCE_ADAPTERS } from "../data/sources/adapters.ts";
import { findSources } from "../data/import/find-sources.ts";
import { importSource, type ImportOptions } from "../data/import/import-source.ts";
import { progressReporter } from "../data/import/import-progress.ts";
import { formatCoverage, formatSummary } from "../data/import/import-summary.ts";
import { readDate } from "../data/readers/parse-date.ts";
import { DEFAULT_MAX_SHRINK } from "../data/import/shrink-guard.ts";
import { SourceFileError, type SourceAdapter } from "../data/sources/source-adapter.ts";
import { createLicenseRepo } from "../store/license-repo.ts";
import { DatabaseFileError, openDatabase, type Db } from "../store/open-database.ts";
import { RecordRejectedError } from "../store/replace-state.ts";
import { databaseUrlFromEnv } from "../db/state-db.ts";
import { publishAfterWrite } from "../data/publish/publish-snapshot.ts";
import type { SnapshotRow } from "../store/snapshots/snapshot-store.ts";
import { takeImportTurn, UnpublishedStatesError, type ImportTurn } from "../data/sync/node-sync.ts";
import { fail } from "./fail.ts";

const USAGE = `Imports state agencies' license exports. Each file becomes a source of its state; the state's
records are made from all its sources, the newest source's facts winning.

usage: npm run import -- --db FILE --all DIR
       npm run import -- --db FILE --source SOURCE [--as-of YYYY-MM-DD] [--replace] PATH...
  either also takes [--max-shrink PCT] [--accept-shrink] [--no-archive]

  --db FILE        SQLite database to write (created when missing)
  --all DIR        every file under DIR that a known source reads (found by its content), each
                   source's files imported together; a table of what each state then holds at the end
  --source SOURCE  the agency format PATH... are in; the state follows from it:
${SOURCE_ADAPTERS.map((a) => `                     ${a.name.padEnd(8)} ${a.description}`).join("\n")}
  --as-of DATE     when the data was current, for files that do not say (default: the newest date in
                   each file that is never later than its export, such as an original issue date)
  --replace        start the state over: its other sources, and what they said, go
  --max-shrink PCT refuse an import that would stop serving more than PCT% of the licenses its
                   state serves now (default ${DEFAULT_MAX_SHRINK}): a list that much shorter is more often a
                   cut-off download than licenses gone. Nothing changes; the refusal is recorded
  --accept-shrink  import it whatever share stops being served: the agency's list really shrank
  --no-archive     do not keep a copy of each file read in the archive (see below)
  --help           this text

With DATABASE_URL (postgres://…), the import waits for any sync or import under way on another node,
starts FILE from the newest published snapshot (so it keeps what others published), and then
publishes the database there as a snapshot, which every service node (npm run api with the same
DATABASE_URL) fetches and swaps in; a failure to publish is exit code 1. An import whose FILE holds
states newer than that snapshot's, or that it lacks (imported without DATABASE_URL, or a publish
that failed), is refused naming them, before anything changes: starting from the snapshot would drop
them. A publish is refused too when another snapshot was published after the import started.

A file imported before (the same SHA-256) is not read again. A license a family's newest whole
roster leaves out is no longer listed; a partial list (New York's 2019 extract) and change reports
(California's, Washington's notices) never make a license disappear.
Readers keep getting the state's previous records until the new set is complete; a failed or
interrupted import leaves them in place. Progress goes to stderr, the summary to stdout.

Each file read is kept, as read, in an archive beside the database: ARCHIVE/SOURCE/SHA256.EXT with
ARCHIVE the folder "archive" next to --db FILE. A source's SHA-256 names its copy there, and a copy
imports like any file: npm run import -- --db FILE --source SOURCE ARCHIVE/SOURCE/SHA256.EXT`;

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      db: { type: "string" },
      source: { type: "string" },
      all: { type: "string" },
      "as-of": { type: "string" },
      replace: { type: "boolean", default: false },
      "max-shrink": { type: "string" },
      "accept-shrink": { type: "boolean", default: false },
      "no-archive": { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
} catch (error) {
  fail(`${(error as Error).message}\n\n${USAGE}`);
}
const { values, positionals: paths } = parsed;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!values.db) fail("--db FILE is required: the SQLite database to import into (see --help)");
const asOf = values["as-of"];
if (asOf !== undefined && !isIsoDate(asOf)) fail(`--as-of must be a date as YYYY-MM-DD, not ${asOf}`);
const maxShrink = values["max-shrink"] === undefined ? undefined : Number(values["max-shrink"]);
if (maxShrink !== undefined && !(/^\d+(\.\d+)?$/.test(values["max-shrink"]!) && maxShrink <= 100))
  fail(`--max-shrink must be a percentage from 0 to 100, not ${values["max-shrink"]}`);
if (values.all !== undefined && (values.source !== undefined || paths.length > 0)) {
  fail("--all DIR finds the files and their sources itself: give it without --source or files");
}
// Every option is checked before the database is opened: a wrong one neither creates the file nor migrates it.
let adapter: SourceAdapter | undefined;
if (values.all === undefined) {
  if (!values.source)
    fail(`--source is required: one of ${SOURCE_ADAPTERS.map((a) => a.name).join(", ")} (or --all DIR)`);
  adapter = findSourceAdapter(values.source);
  if (!adapter) fail(`unknown --source ${values.source}: use one of ${SOURCE_ADAPTERS.map((a) => a.name).join(", ")}`);
  if (paths.length === 0)
    fail(`no files given: name the ${adapter.name} export file(s) after the options (see --help)`);
}

let databaseUrl: string | null = null;
try {
  databaseUrl = databaseUrlFromEnv(process.env);
} catch (error) {
  fail((error as Error).message);
}

const guards: ImportOptions = {
  maxShrink,
  acceptShrink: values["accept-shrink"],
  archive: values["no-archive"] ? undefined : join(dirname(values.db), "archive"),
};

// With DATABASE_URL, one writer at a time across the nodes, from the newest snapshot: what this import publishes
// keeps what others published, and a sync waits for it rather than publishing over it.
let turn: ImportTurn | undefined;
let published: SnapshotRow | undefined;
if (databaseUrl) {
  try {
    turn = await takeImportTurn(databaseUrl, values.db, (line) => console.error(line));
  } catch (error) {
    if (error instanceof UnpublishedStatesError) fail(error.message);
    fail(
      `the import could not start from the newest snapshot in PostgreSQL (${(error as Error).message}); nothing ` +
        `was imported. Check that PostgreSQL answers at DATABASE_URL, then run the import again`,
    );
  }
}

let db: Db;
try {
  db = openDatabase(values.db, { create: true });
} catch (error) {
  fail((error as Error).message);
}

if (values.all !== undefined) {
  const found = await findSources(values.all).catch((error: Error) => fail(`${values.all}: ${error.message}`));
  if (found.bySource.length === 0)
    fail(`${values.all}: holds no file of a known source (${SOURCE_ADAPTERS.map((a) => a.name).join(", ")})`);
  let failed = false;
  for (const { adapter, paths: files } of found.bySource) {
    failed = !(await run(adapter, files, { asOf, ...guards })) || failed;
    console.log("");
  }
  for (const { path, reason } of found.unusable) console.log(`not imported: ${path}: ${reason}`);
  if (found.unknown.length) console.log(`not a known source's layout: ${found.unknown.join(", ")}`);
  console.log(`\n${formatCoverage(createLicenseRepo(db).coverage())}`);
  if (databaseUrl)
    failed =
      !(await publishAfterWrite(db, databaseUrl, process.env, (row) => (published = row), turn?.startedFrom)) || failed;
  db.close();
  await turn?.end(published);
  process.exit(failed ? 1 : 0);
}

let ok = await run(adapter!, paths, { asOf, replace: values.replace, ...guards });
if (ok)
  console.log(
    `\n${formatCoverage(
      createLicenseRepo(db)
        .coverage()
        .filter((c) => c.state === adapter!.state),
    )}`,
  );
// Published whatever the outcome: a refused file is recorded, and /v2/states shows it.
if (databaseUrl)
  ok = (await publishAfterWrite(db, databaseUrl, process.env, (row) => (published = row), turn?.startedFrom)) && ok;
db.close();
await turn?.end(published);
process.exit(ok ? 0 : 1);

/** One source's import, its summary on stdout; false (with the reason on stderr) when it failed. */
async function run(source: SourceAdapter, files: string[], options: ImportOptions): Promise<boolean> {
  const progress = progressReporter(process.stderr, source.name);
  try {
    const result = await importSource(db, source, files, { ...options, onProgress: (p) => progress.update(p) });
    progress.stop();
    console.log(formatSummary(result));
    return true;
  } catch (error) {
    progress.stop();
    if (
      error instanceof SourceFileError ||
      error instanceof DatabaseFileError ||
      error instanceof RecordRejectedError
    ) {
      console.error(`error: ${error.message}`);
      return false;
    }
    console.error(error);
    console.error(
      `error: the import of ${files.join(", ")} stopped on an unexpected error (above); the state's previous data is unchanged`,
    );
    return false;
  }
}

function isIsoDate(text: string): boolean {
  try {
    return /^\d{4}-\d{2}-\d{2}$/.test(text) && readDate(text, "--as-of", ["iso"]) === text;
  } catch {
    return false;
  }
}
