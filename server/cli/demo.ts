import { parseArgs } from "node:util";
import { DEMO_STATES } from "../data/demo/generate-licenses.ts";
import { fillDemo } from "../data/demo/fill-demo.ts";
import { openDatabase } from "../store/open-database.ts";
import { databaseUrlFromEnv } from "../db/state-db.ts";
import { publishAfterWrite } from "../data/publish/publish-snapshot.ts";
import { fail } from "./fail.ts";

const USAGE = `Fills a database with deterministic synthetic demo licenses (replacing those states' data).

usage: npm run demo -- [--db FILE] [--states ny,ma,...] [--per-state N] [--seed N]

  --db FILE       SQLite database, created if absent (default data/licenses.sqlite)
  --states LIST   states to fill (default and choices: ${DEMO_STATES.join(",")})
  --per-state N   licenses per state (default 2000)
  --seed N        generator seed (default 1); the same seed gives the same records

With DATABASE_URL (postgres://…), the database is then published there as the snapshot every service node
(npm run api with the same DATABASE_URL) serves.`;

const { values } = parseArgs({
  options: {
    db: { type: "string", default: "data/licenses.sqlite" },
    states: { type: "string", default: DEMO_STATES.join(",") },
    "per-state": { type: "string", default: "2000" },
    seed: { type: "string", default: "1" },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const states = values.states
  .split(",")
  .map((s) => s.trim().toLowerCase())
  .filter(Boolean);
const unknown = states.filter((s) => !(DEMO_STATES as readonly string[]).includes(s));
if (unknown.length) fail(`no demo data for ${unknown.join(", ")}: choose from ${DEMO_STATES.join(",")}`);
const perState = Number(values["per-state"]);
if (!Number.isInteger(perState) || perState < 1) fail(`--per-state must be a positive whole number`);
const seed = Number(values.seed);
if (!Number.isInteger(seed)) fail(`--seed must be a whole number`);

let databaseUrl: string | null = null;
try {
  databaseUrl = databaseUrlFromEnv(process.env);
} catch (error) {
  fail((error as Error).message);
}

const db = openDatabase(values.db, { create: true });
for (const { state, records, seconds } of await fillDemo(db, states, perState, seed)) {
  console.log(`${state}: ${records} demo licenses in ${seconds.toFixed(1)} s`);
}
// Several nodes: the demo data is published as the snapshot they serve, as an import's is.
const published = databaseUrl ? await publishAfterWrite(db, databaseUrl, process.env) : true;
db.close();
if (!published) process.exit(1);
