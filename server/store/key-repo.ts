import { hash, randomBytes, timingSafeEqual } from "node:crypto";
import { mapUntilChange, noteOwnWrite } from "./change-watch.ts";
import type { Db } from "./open-database.ts";
import { formatTimestamp } from "./timestamp.ts";

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

const KEY_SHAPE = /^ll_[A-Za-z0-9_-]{43}$/;
/** Live keys remembered between database changes; more than this and the memory starts over. */
const MAX_CACHED_KEYS = 10_000;

/** One-shot: every request hashes its key, and a Hash object per call cost more than the hashing. */
function hashKey(key: string): string {
  return hash("sha256", key, "hex");
}

/** API keys: only their SHA-256 hashes are stored; a key is shown once, when created. */
export function createKeyRepo(db: Db) {
  const insert = db.prepare(`INSERT INTO api_keys (hash, states, label, created_at) VALUES (?, ?, ?, ?)`);
  const byHash = db.prepare(`SELECT id, hash, states FROM api_keys WHERE hash = ? AND revoked_at IS NULL`);
  const all = db.prepare(`SELECT id, label, states, created_at, revoked_at FROM api_keys ORDER BY id`);
  const revoke = db.prepare(`UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL`);
  // Verified keys by hash, valid while nothing in the database changes.
  const verified = mapUntilChange<string, Caller>(db, MAX_CACHED_KEYS);

  return {
    /** Creates a key for these states (lower-case codes, or ALL_STATES) and returns it in clear, once. */
    create(states: string[], label: string | null = null): { id: number; key: string } {
      const key = `ll_${randomBytes(32).toString("base64url")}`;
      const { lastInsertRowid } = insert.run(hashKey(key), states.join(","), label, formatTimestamp(new Date()));
      return { id: Number(lastInsertRowid), key };
    },

    list(): KeyInfo[] {
      return (all.all() as (Omit<KeyInfo, "states"> & { states: string })[]).map((k) => ({
        ...k,
        states: k.states.split(","),
      }));
    },

    /** Revokes a key; false when there is no such live key. Takes effect on the key's next request. */
    revoke(id: number): boolean {
      const revoked = revoke.run(formatTimestamp(new Date()), id).changes === 1;
      noteOwnWrite(db);
      return revoked;
    },

    /** The caller a presented key stands for, or null for a malformed, unknown or revoked key. */
    verify(key: string): Caller | null {
      if (!KEY_SHAPE.test(key)) return null;
      const hash = hashKey(key);
      const cached = verified.current();
      const known = cached.get(hash);
      if (known) return known;
      const row = byHash.get(hash) as { id: number; hash: string; states: string } | undefined;
      // The lookup is by hash, so timing cannot reveal a key; the comparison is constant-time anyway.
      if (!row || !timingSafeEqual(Buffer.from(row.hash), Buffer.from(hash))) return null;
      const states = new Set(row.states.split(","));
      const caller: Caller = { keyId: row.id, covers: (state) => states.has(ALL_STATES) || states.has(state) };
      cached.set(hash, caller);
      return caller;
    },
  };
}

export type KeyRepo = ReturnType<typeof createKeyRepo>;
