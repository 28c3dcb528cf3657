import { parseArgs } from "node:util";
import { closeOnSignals } from "../http/close-on-signals.ts";
import { startServer } from "../service/main.ts";
import { databaseUrlFromEnv } from "../db/state-db.ts";
import { DEFAULT_RATE_LIMIT, redisUrlFromEnv } from "../service/rate-limit.ts";
import { fail } from "./fail.ts";

const USAGE = `Serves the v2 license API, as built by npm run build.

usage: npm run api -- [--db FILE] [--port N] [--host H]

  --db FILE       SQLite database (default data/licenses.sqlite); create one with npm run demo or npm run import
  --port N        port to listen on (default 8787)
  --host H        address to listen on (default 127.0.0.1)
  --rate-limit N  requests per second per API key (default ${DEFAULT_RATE_LIMIT.perSecond}; 0 turns the limit off)
  --burst N       requests a key may make at once (default ${DEFAULT_RATE_LIMIT.burst})
  --quiet         no request log
  --help          this text

Several nodes (each with its own --db copy of the license data):
  DATABASE_URL=postgres://...  the API keys live in PostgreSQL (npm run keys with the same DATABASE_URL manages
                               them): a key revoked through any node is refused by every node within 2 seconds
  REDIS_URL=redis://...        each key's rate limit is counted in Redis, once across every node. While Redis
                               cannot be reached, each node counts on its own (a key may then make its limit
                               once per node), logs it once, and /readyz answers 503 naming Redis
  The license data, too: each node serves the newest snapshot that npm run import or npm run sync
  published there (fetched beside --db FILE, its SHA-256 checked, before the node listens; --db FILE
  itself is served only while none is published) and swaps in each new one between requests, told by
  NOTIFY and asking every 15 s; every answer names it in x-lls-snapshot
GET /healthz answers 200 while the process runs; GET /readyz 200 when the node can serve, else 503 with the
reasons (PostgreSQL or Redis unreachable). Neither needs a key or counts against a limit.

SIGTERM or SIGINT stops it: requests in flight finish, the database closes, and it exits 0.`;

const { values } = parseArgs({
  options: {
    db: { type: "string", default: "data/licenses.sqlite" },
    port: { type: "string", default: "8787" },
    host: { type: "string", default: "127.0.0.1" },
    "rate-limit": { type: "string", default: String(DEFAULT_RATE_LIMIT.perSecond) },
    burst: { type: "string", default: String(DEFAULT_RATE_LIMIT.burst) },
    quiet: { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535)
  fail(`--port must be a number from 0 to 65535, not ${values.port}`);

const perSecond = Number(values["rate-limit"]);
const burst = Number(values.burst);
if (!(perSecond >= 0) || !Number.isInteger(burst) || burst < 1)
  fail("--rate-limit must be 0 or more and --burst a whole number of 1 or more");

try {
  const databaseUrl = databaseUrlFromEnv(process.env);
  const rateLimit = perSecond === 0 ? false : { perSecond, burst, redisUrl: redisUrlFromEnv(process.env) };
  const { app, url } = await startServer({
    db: values.db,
    port,
    host: values.host,
    log: !values.quiet,
    rateLimit,
    databaseUrl,
  });
  closeOnSignals(() => app.close());
  const data = databaseUrl ? `snapshots published to DATABASE_URL, kept beside ${values.db}` : `database ${values.db}`;
  console.error(`License API listening on ${url}/v2 (${data}; docs at ${url}/v2/docs)`);
} catch (error) {
  fail((error as Error).message);
}
