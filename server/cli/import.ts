import { parseArgs } from "node:util";
import { DatabaseFileError, openDatabase } from "../store/open-database.ts";
import { RecordRejectedError } from "../store/replace-state.ts";
import { importSource } from "../import/import-source.ts";
import { progressReporter } from "../import/import-progress.ts";
import { formatSummary } from "../import/import-summary.ts";
import { readDate } from "../import/parse-date.ts";
import { SourceFileError } from "../import/row-outcome.ts";
import { findSourceAdapter, SOURCE_ADAPTERS } from "../import/source-adapters.ts";
import { fail } from "./fail.ts";

const USAGE = `Imports one state's licenses from an agency's export, replacing that state's data.

usage: npm run import -- --db FILE --source SOURCE [--as-of YYYY-MM-DD] PATH...

  --db FILE        SQLite database to write (created when missing)
  --source SOURCE  the agency format PATH... are in; the state follows from it:
${SOURCE_ADAPTERS.map((a) => `                     ${a.name.padEnd(8)} ${a.description}`).join("\n")}
  --as-of DATE     when the data was current, used when the files do not say (default: today)
  --help           this text

All PATHs together become the state's data: a license number seen twice keeps its first usable row.
Readers keep getting the state's previous data until the new set is complete; a failed or
interrupted import leaves the previous data in place. Progress goes to stderr, the summary to stdout.`;

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      db: { type: "string" },
      source: { type: "string" },
      "as-of": { type: "string" },
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
if (!values.source) fail(`--source is required: one of ${SOURCE_ADAPTERS.map((a) => a.name).join(", ")}`);
const adapter = findSourceAdapter(values.source);
if (!adapter) fail(`unknown --source ${values.source}: use one of ${SOURCE_ADAPTERS.map((a) => a.name).join(", ")}`);
if (paths.length === 0) fail(`no files given: name the ${adapter.name} export file(s) after the options (see --help)`);
const asOf = values["as-of"];
if (asOf !== undefined && !isIsoDate(asOf)) fail(`--as-of must be a date as YYYY-MM-DD, not ${asOf}`);

const progress = progressReporter(process.stderr, adapter.name);
try {
  const db = openDatabase(values.db, { create: true });
  const result = await importSource(db, adapter, paths, { asOf, onProgress: (p) => progress.update(p) });
  progress.stop();
  db.close();
  console.log(formatSummary(result));
} catch (error) {
  progress.stop();
  if (error instanceof SourceFileError || error instanceof DatabaseFileError || error instanceof RecordRejectedError) {
    fail(error.message);
  }
  console.error(error);
  fail(
    `the import of ${paths.join(", ")} stopped on an unexpected error (above); the state's previous data is unchanged`,
  );
}

function isIsoDate(text: string): boolean {
  try {
    return /^\d{4}-\d{2}-\d{2}$/.test(text) && readDate(text, "--as-of", ["iso"]) === text;
  } catch {
    return false;
  }
}
