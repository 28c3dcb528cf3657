import type { Db } from "./open-database.ts";

const watches = new WeakMap<Db, () => number>();

/**
 * A number that moves whenever the database may have changed: a commit by another connection
 * (`data_version`: an import, `npm run keys revoke`) or a write by this one (`total_changes()`).
 * Caches keyed to it stay exact: a revoked key is refused on its very next request.
 */
export function changeCounter(db: Db): () => number {
  let counter = watches.get(db);
  if (!counter) {
    const version = db.prepare(`SELECT (SELECT data_version FROM pragma_data_version) || '.' || total_changes()`).pluck();
    let last = version.get();
    let generation = 0;
    counter = () => {
      const now = version.get();
      if (now !== last) {
        last = now;
        generation++;
      }
      return generation;
    };
    watches.set(db, counter);
  }
  return counter;
}
