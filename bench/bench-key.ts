import { openStateDb } from "../server/db/state-db.ts";
import { ALL_STATES, createKeyRepo } from "../server/service/key-repo.ts";
import { openDatabase } from "../server/store/open-database.ts";

/** Runs `use` on the key repository of the service's file, made the way `npm run keys` makes it. */
async function withKeys<T>(file: string, use: (keys: ReturnType<typeof createKeyRepo>) => Promise<T>): Promise<T> {
  const db = openDatabase(file);
  try {
    return await use(createKeyRepo(openStateDb({ sqlite: db })));
  } finally {
    db.close();
  }
}

/** A real API key for one run, made the way `npm run keys` makes one; revoke it when done. */
export async function createBenchKey(file: string, label: string) {
  const { id, key } = await withKeys(file, (keys) => keys.create([ALL_STATES], label));
  return {
    headers: { authorization: `Bearer ${key}` },
    key,
    revoke: () => withKeys(file, (keys) => keys.revoke(id)),
  };
}
