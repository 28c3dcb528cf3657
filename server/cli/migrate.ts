import { parseArgs } from "node:util";
import { STORE_VERSION, storeVersion } from "../store/migrations.ts";
import { DatabaseFileError, openDatabase } from "../store/open-database.ts";
import { fail } from "./fail.ts";

const USAGE = `Brings a database written by an older License Lookup up to this version's store (version ${STORE_VERSION}).

usage: npm run migrate -- --db FILE

  --db FILE   the SQLite database (default data/licenses.sqlite)
  --help      this text

Each step is printed as it runs. The service refuses to serve an older store and names this
command; imports, npm run demo, npm run keys and npm start migrate the file they open by themselves.`;

const { values } = parseArgs({
  options: {
    db: { type: "string", default: "data/licenses.sqlite" },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

try {
  const db = openDatabase(values.db);
  console.log(`${values.db} is at store version ${storeVersion(db)}, this License Lookup's.`);
  db.close();
} catch (error) {
  if (error instanceof DatabaseFileError) fail(error.message);
  throw error;
}
