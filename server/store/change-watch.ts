import type { Db } from "./open-database.ts";

interface Watch {
  current(): number;
  /** This connection just wrote: caches must not outlive it, not even within this turn. */
  wrote(): void;
}

const watches = new WeakMap<Db, Watch>();

function watchOf(db: Db): Watch {
  let watch = watches.get(db);
  if (watch) return watch;
  // data_version moves when another connection commits (an import, `npm run keys -- revoke`);
  // total_changes() when this one writes by any path, the repos' announced writes aside.
  const probe = db.prepare(`SELECT (SELECT data_version FROM pragma_data_version), total_changes()`).raw();
  let last = String(probe.get());
  let generation = 0;
  // Each probe takes the database's read lock: once per event-loop turn is enough, since another
  // connection's commit can only be seen from one turn to the next, and this connection's own
  // writes through the repos are announced (wrote()). Requests then pay for it once per turn.
  let fresh = false;
  watch = {
    current() {
      if (!fresh) {
        fresh = true;
        setImmediate(() => (fresh = false));
        const now = String(probe.get());
        if (now !== last) {
          last = now;
          generation++;
        }
      }
      return generation;
    },
    wrote() {
      generation++;
      fresh = false;
    },
  };
  watches.set(db, watch);
  return watch;
}

/** Tells this connection's caches that it has just written (key-repo, replace-state do). */
export function noteOwnWrite(db: Db): void {
  watchOf(db).wrote();
}

/**
 * A map that empties itself whenever the database may have changed (see watchOf), or once
 * it holds `limit` entries: for caches that must never outlive what they were read from.
 */
export function mapUntilChange<K, V>(db: Db, limit = Infinity) {
  const watch = watchOf(db);
  let map = new Map<K, V>();
  let at = watch.current();
  return {
    current(): Map<K, V> {
      const generation = watch.current();
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
