import { parseArgs } from "node:util";
import { closeOnSignals, startServer } from "../main.ts";
import { fail } from "./fail.ts";

const USAGE = `Serves the v2 license API.

usage: npm run api -- [--db FILE] [--port N] [--host H]

  --db FILE   SQLite database (default data/licenses.sqlite); create one with npm run demo or npm run import
  --port N    port to listen on (default 8787)
  --host H    address to listen on (default 127.0.0.1)
  --quiet     no request log
  --help      this text`;

const { values } = parseArgs({
  options: {
    db: { type: "string", default: "data/licenses.sqlite" },
    port: { type: "string", default: "8787" },
    host: { type: "string", default: "127.0.0.1" },
    quiet: { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a number from 0 to 65535, not ${values.port}`);

try {
  const { app, url } = await startServer({ db: values.db, port, host: values.host, log: !values.quiet });
  closeOnSignals(() => app.close());
  console.error(`License API listening on ${url}/v2 (database ${values.db})`);
} catch (error) {
  fail((error as Error).message);
}
