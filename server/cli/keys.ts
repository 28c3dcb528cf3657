import { parseArgs } from "node:util";
import { isStateCode } from "../../src/contract/states.ts";
import { databaseUrlFromEnv, openStateDb } from "../db/state-db.ts";
import { ALL_STATES, createKeyRepo } from "../service/key-repo.ts";
import { openDatabase } from "../store/open-database.ts";
import { openServiceState } from "../store/service-state.ts";
import { fail } from "./fail.ts";

const USAGE = `Manages API keys (stored as SHA-256 hashes; a key is shown once, when created).

usage: npm run keys -- create --db FILE --states ny,ma [--label L]
       npm run keys -- list   --db FILE
       npm run keys -- revoke --db FILE ID

  --db FILE   the service's SQLite database, which holds the keys (default data/licenses.sqlite)
  --states    comma-separated state codes the key may read, or "all"
  --label L   a note to recognise the key by in "list"
  create prints the new key alone on the last line of stdout.

With DATABASE_URL=postgres://... set, the keys live in that PostgreSQL database instead (--db is not used),
shared by every service node started with the same DATABASE_URL: a key created there is accepted by every
node at once, and a revoked one is refused by every node within 2 seconds.`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    db: { type: "string", default: "data/licenses.sqlite" },
    states: { type: "string" },
    label: { type: "string" },
    help: { type: "boolean", default: false },
  },
});
const [command, ...rest] = positionals;
if (values.help || !command) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 1);
}

let state;
try {
  const url = databaseUrlFromEnv(process.env);
  state = url
    ? await openServiceState(url)
    : openStateDb({ sqlite: openDatabase(values.db, { create: command === "create" }) });
} catch (error) {
  fail((error as Error).message);
}
const keys = createKeyRepo(state);

switch (command) {
  case "create": {
    if (!values.states) fail("create needs --states, such as --states ny,ma or --states all");
    const states = parseStates(values.states);
    const { id, key } = await keys.create(states, values.label ?? null);
    console.log(`Created key ${id} for ${states.join(",")}. Store it now: it cannot be shown again.`);
    console.log(key);
    break;
  }
  case "list":
    console.log(["id", "states", "created", "revoked", "label"].join("\t"));
    for (const k of await keys.list()) {
      console.log([k.id, k.states.join(","), k.created_at, k.revoked_at ?? "-", k.label ?? ""].join("\t"));
    }
    break;
  case "revoke": {
    const id = Number(rest[0]);
    if (!Number.isInteger(id)) fail("revoke needs the key's id, as shown by list");
    if (!(await keys.revoke(id))) fail(`no live key with id ${id}`);
    console.log(
      state.backend === "postgres"
        ? `Revoked key ${id}; every service node refuses it within 2 seconds.`
        : `Revoked key ${id}; it is refused from its next request on.`,
    );
    break;
  }
  default:
    fail(`unknown command ${command}: use create, list or revoke (see --help)`);
}
await state.close();
state.sqlite?.close();

function parseStates(list: string): string[] {
  if (list.trim().toLowerCase() === "all") return [ALL_STATES];
  const states = list
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const unknown = states.filter((s) => !isStateCode(s));
  if (states.length === 0 || unknown.length) fail(`not state codes: ${unknown.join(", ") || "(none given)"}`);
  return [...new Set(states)];
}
