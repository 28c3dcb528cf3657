import type { Db } from "./open-database.ts";

interface Watch {
  /** Called before reading: the generation of what the database holds now (see watchOf). */
  current(): number;
  /** This connection just wrote: caches must not outlive it, not even within this turn. */
  wrote(): void;
  /** Whether each turn's reads share one read transaction (readInTurnSnapshots). */
  snapshots: boolean;
}

const watches = new WeakMap<Db, Watch>();

function watchOf(db: Db): Watch {
  const watch = watches.get(db);
  if (watch) return watch;
  // data_version moves when another connection commits (an import, `npm run keys -- revoke`);
  // total_changes() when this one writes by any path, the repos' announced writes aside.
  const probe = db.prepare(`SELECT (SELECT data_version FROM pragma_data_version), total_changes()`).raw();
  const begin = db.prepare("BEGIN");
  const commit = db.prepare("COMMIT");
  let last = String(probe.get());
  let generation = 0;
  // Each probe takes the database's read lock: once per event-loop turn is enough, since another
  // connection's commit can only be seen from one turn to the next, and this connection's own
  // writes through the repos are announced (wrote()). Requests then pay for it once per turn.
  let fresh = false;
  let snapshotOpen = false;
  const endTurn = () => {
    fresh = false;
    if (!snapshotOpen) return;
    snapshotOpen = false;
    // A closed connection or an error SQLite rolled back has already ended it.
    if (!db.open || !db.inTransaction) return;
    try {
      commit.run();
    } catch (error) {
      // Say so, but never take the server down from a timer: the snapshot only read.
      process.emitWarning(`could not end a read snapshot: ${(error as Error).message}`);
      if (db.inTransaction) db.exec("ROLLBACK");
    }
  };
  const w: Watch = {
    snapshots: false,
    current() {
      if (!fresh) {
        fresh = true;
        setImmediate(endTurn);
        if (w.snapshots && !db.inTransaction) {
          begin.run();
          snapshotOpen = true;
        }
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
  watches.set(db, w);
  return w;
}

/**
 * For a connection that only serves reads (the API's): every event-loop turn's reads share one
 * read transaction, begun by the turn's first read and committed when the turn ends (the next one,
 * when that read ran in a setImmediate callback). Each statement on its own would take and drop
 * WAL read locks, two system calls or more, which under load cost more than a license lookup
 * itself. A turn lasts microseconds to milliseconds, so an import's commit still shows from the
 * next turn on and never waits for the readers. The connection is made query-only: a write on it
 * would otherwise be held until the turn's end.
 */
export function readInTurnSnapshots(db: Db): void {
  db.pragma("query_only = 1");
  watchOf(db).snapshots = true;
}

/**
 * Wraps reads that must see one state of the database: they run in the turn's snapshot when the
 * connection has them, else in a read transaction of their own.
 */
export function consistentReads<A extends unknown[], R>(db: Db, reads: (...args: A) => R): (...args: A) => R {
  const watch = watchOf(db);
  const inTransaction = db.transaction(reads);
  return (...args) => {
    watch.current();
    return db.inTransaction ? reads(...args) : inTransaction(...args);
  };
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
