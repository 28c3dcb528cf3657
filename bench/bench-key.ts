import { ALL_STATES, createKeyRepo } from "../server/store/key-repo.ts";
import { openDatabase } from "../server/store/open-database.ts";

/** A real API key for one run, made the way `npm run keys` makes one; revoke it when done. */
export function createBenchKey(file: string, label: string) {
  const db = openDatabase(file);
  const { id, key } = createKeyRepo(db).create([ALL_STATES], label);
  db.close();
  return {
    headers: { authorization: `Bearer ${key}` },
    key,
    revoke: () => {
      const db = openDatabase(file);
      createKeyRepo(db).revoke(id);
      db.close();
    },
  };
}
