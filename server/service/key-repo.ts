import { hash, randomBytes } from "node:crypto";
import { sql, type Generated, type Kysely } from "kysely";
import { listen, type Listener } from "../db/listen.ts";
import type { StateDb } from "../db/state-db.ts";
import { mapUntilChange, noteOwnWrite } from "../store/change-watch.ts";
import { formatTimestamp } from "../store/timestamp.ts";

/** Scope meaning "every state the service has data for". */
export const ALL_STATES = "*";

export interface KeyInfo {
  id: number;
  label: string | null;
  states: string[];
  created_at: string;
  revoked_at: string | null;
}

export interface Caller {
  keyId: number;
  /** Whether the key may read this state (lower-case code). */
  covers(state: string): boolean;
}

/** The table on both backends: the license file's own on SQLite, SERVICE_MIGRATIONS' on PostgreSQL. */
interface KeyTables {
  api_keys: {
    id: Generated<number>;
    hash: string;
    states: string;
    label: string | null;
    created_at: string;
    revoked_at: string | null;
  };
}

/** Every node LISTENs here; a create or revoke NOTIFYs in its own transaction, so no node hears of it before it is true. */
export const KEYS_CHANNEL = "lls_keys";
/** The safety net under NOTIFY (a dropped listening connection): every node reloads the live keys this often. */
export const KEYS_POLL_MS = 1000;

const KEY_SHAPE = /^ll_[A-Za-z0-9_-]{43}$/;

/** One-shot: every request hashes its key, and a Hash object per call cost more than the hashing. */
function hashKey(key: string): string {
  return hash("sha256", key, "hex");
}

type LiveKeys = Map<string, Caller>;

export interface KeyRepoOptions {
  /** Told when the live keys cannot be reloaded, and when they can again (PostgreSQL). */
  log?: (line: string) => void;
  pollMs?: number;
}

/**
 * API keys, only their SHA-256 hashes stored (a key is shown once, when created), in the service's SQLite file
 * or in PostgreSQL (DATABASE_URL). Checking a key is a lookup in memory: the live keys, reloaded when they change
 * (SQLite: the file's data_version, seen on the next request; PostgreSQL: NOTIFY, and a poll every second).
 */
export function createKeyRepo(state: StateDb, { log = () => {}, pollMs = KEYS_POLL_MS }: KeyRepoOptions = {}) {
  const db = state.db as Kysely<KeyTables>;
  const memory = state.sqlite ? untilFileChanges(state) : untilNotified(state, pollMs, log, () => reload());

  async function loadLive(): Promise<LiveKeys> {
    const rows = await db
      .selectFrom("api_keys")
      .select(["id", "hash", "states"])
      .where("revoked_at", "is", null)
      .execute();
    const live: LiveKeys = new Map();
    for (const row of rows) {
      const states = new Set(row.states.split(","));
      const everywhere = states.has(ALL_STATES);
      live.set(row.hash, { keyId: Number(row.id), covers: (s) => everywhere || states.has(s) });
    }
    return live;
  }

  // A reload asked for while one runs must see writes made after that one began: it runs next, once for all who asked.
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  function reload(): Promise<void> {
    if (!running) {
      const keep = memory.keeper();
      running = loadLive()
        .then(keep)
        .finally(() => (running = null));
      return running;
    }
    queued ??= running
      .catch(() => {})
      .then(() => {
        queued = null;
        return reload();
      });
    return queued;
  }

  /** A create or revoke, announced to every reader of the keys once it is committed. */
  async function announced<T>(write: (db: Kysely<KeyTables>) => Promise<T>): Promise<T> {
    const result = state.sqlite
      ? await write(db)
      : await db.transaction().execute(async (trx) => {
          const written = await write(trx);
          await sql`SELECT pg_notify(${KEYS_CHANNEL}, '')`.execute(trx);
          return written;
        });
    // This node's own next request sees it, without waiting for its notification.
    memory.wrote();
    return result;
  }

  return {
    /** Creates a key for these states (lower-case codes, or ALL_STATES) and returns it in clear, once. */
    async create(states: string[], label: string | null = null): Promise<{ id: number; key: string }> {
      const key = `ll_${randomBytes(32).toString("base64url")}`;
      const row = await announced((d) =>
        d
          .insertInto("api_keys")
          .values({ hash: hashKey(key), states: states.join(","), label, created_at: formatTimestamp(new Date()) })
          .returning("id")
          .executeTakeFirstOrThrow(),
      );
      return { id: Number(row.id), key };
    },

    async list(): Promise<KeyInfo[]> {
      const rows = await db
        .selectFrom("api_keys")
        .select(["id", "label", "states", "created_at", "revoked_at"])
        .orderBy("id")
        .execute();
      return rows.map((k) => ({ ...k, id: Number(k.id), states: k.states.split(",") }));
    },

    /** Revokes a key; false when there is no such live key. Every node refuses it within seconds. */
    async revoke(id: number): Promise<boolean> {
      const result = await announced((d) =>
        d
          .updateTable("api_keys")
          .set({ revoked_at: formatTimestamp(new Date()) })
          .where("id", "=", id)
          .where("revoked_at", "is", null)
          .executeTakeFirst(),
      );
      return Number(result.numUpdatedRows) === 1;
    },

    /**
     * The caller a presented key stands for, or null for a malformed, unknown or revoked key: at once from memory
     * for a key it holds, a promise only when memory cannot say (a key created elsewhere since the last reload, or
     * keys changed): the database is asked once before a key is refused. Looked up by the key's hash, so the
     * time taken reveals nothing of a key.
     */
    verify(key: string): Caller | null | Promise<Caller | null> {
      if (!KEY_SHAPE.test(key)) return null;
      const hashed = hashKey(key);
      const known = memory.current()?.get(hashed);
      if (known) return known;
      // Memory is only ever filled while following, so a node that verifies hears of revocations.
      memory.follow();
      return reload().then(() => memory.current()?.get(hashed) ?? null);
    },

    /** Loads the live keys and follows their changes (PostgreSQL): before a node listens, so it starts warm. */
    async follow(): Promise<void> {
      memory.follow();
      await reload();
    },

    /** Stops following (the listening connection and the poll); the StateDb stays its owner's to close. */
    close: () => memory.close(),
  };
}

export type KeyRepo = ReturnType<typeof createKeyRepo>;

interface Memory {
  /** The live keys as known now; undefined when they may have changed since they were loaded. */
  current(): LiveKeys | undefined;
  /** Called as a reload begins: stores what it loads, unless the keys changed meanwhile (then it is stale). */
  keeper(): (live: LiveKeys) => void;
  /** This process changed the keys: what memory holds is stale. */
  wrote(): void;
  follow(): void;
  close(): Promise<void>;
}

/** SQLite: the keys held until the file changes (another process's commit, as `npm run keys -- revoke` makes). */
function untilFileChanges(state: StateDb): Memory {
  const held = mapUntilChange<"live", LiveKeys>(state.sqlite!);
  return {
    current: () => held.current().get("live"),
    keeper() {
      const slot = held.current();
      return (live) => void slot.set("live", live);
    },
    wrote: () => noteOwnWrite(state.sqlite!),
    follow() {},
    close: () => Promise.resolve(),
  };
}

/** PostgreSQL: the keys reloaded on each NOTIFY from any node, and every `pollMs` in case one was missed. */
function untilNotified(
  state: StateDb,
  pollMs: number,
  log: (line: string) => void,
  reload: () => Promise<void>,
): Memory {
  let live: LiveKeys | undefined;
  let generation = 0;
  let following = false;
  let closed = false;
  let listener: Listener | null = null;
  let poll: NodeJS.Timeout | null = null;
  let failing = false;

  const reloadNow = () =>
    void reload().then(
      () => {
        if (failing) log(`API keys: ${state.label} answers again; keys are current`);
        failing = false;
      },
      (error: Error) => {
        // Once per outage: the keys in memory keep serving, and /readyz says the database is unreachable.
        if (!failing)
          log(`API keys: cannot reload from ${state.label} (${error.message}); serving the keys last loaded`);
        failing = true;
      },
    );

  return {
    current: () => live,
    keeper() {
      const at = generation;
      return (loaded) => {
        if (at === generation) live = loaded;
      };
    },
    wrote() {
      generation++;
      live = undefined;
    },
    follow() {
      if (following || closed) return;
      following = true;
      // The poll covers a notification lost while the listening connection is away; a reload on each (re)connection
      // takes anything committed meanwhile.
      poll = setInterval(reloadNow, pollMs).unref();
      listener = listen(state.pool!, KEYS_CHANNEL, { onNotification: reloadNow, onListening: reloadNow });
    },
    async close() {
      closed = true;
      if (poll) clearInterval(poll);
      await listener?.close();
    },
  };
}
