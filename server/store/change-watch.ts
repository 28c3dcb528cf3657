import type { Db } from "./open-database.ts";

const watches = new WeakMap<Db, () => number>();

/**
 * A number that moves whenever the database may have changed: a commit by another connection
 * (`data_version`: an import, `npm run keys -- revoke`) or a write by this one (`total_changes()`).
 * Caches keyed to it stay exact: a revoked key is refused on its next request.
 */
export function changeCounter(db: Db): () => number {
  let counter = watches.get(db);
  if (counter) return counter;
  const dataVersion = db.prepare(`PRAGMA data_version`).pluck();
  const ownChanges = db.prepare(`SELECT total_changes()`).pluck();
  let lastVersion = dataVersion.get();
  let lastOwn = ownChanges.get();
  let generation = 0;
  // Reading data_version takes the database's read lock (a few µs): once per event-loop turn is
  // enough, since a commit elsewhere can only be seen from one turn to the next anyway.
  let versionFresh = false;
  counter = () => {
    if (!versionFresh) {
      versionFresh = true;
      setImmediate(() => (versionFresh = false));
      const version = dataVersion.get();
      if (version !== lastVersion) {
        lastVersion = version;
        generation++;
      }
    }
    const own = ownChanges.get();
    if (own !== lastOwn) {
      lastOwn = own;
      generation++;
    }
    return generation;
  };
  watches.set(db, counter);
  return counter;
}

/**
 * A map that empties itself whenever the database may have changed (see changeCounter), or once
 * it holds `limit` entries: for caches that must never outlive what they were read from.
 */
export function mapUntilChange<K, V>(db: Db, limit = Infinity) {
  const changes = changeCounter(db);
  let map = new Map<K, V>();
  let at = changes();
  return {
    current(): Map<K, V> {
      const generation = changes();
      if (generation !== at || map.size >= limit) {
        map = new Map();
        at = generation;
      }
      return map;
    },
    clear(): void {
      map = new Map();
    },
  };
}
