import { noteOwnWrite } from "./change-watch.ts";
import type { Db } from "./open-database.ts";
import { formatTimestamp } from "./timestamp.ts";

/** A file an import would not load, and why: kept so that a person can see what was refused. */
export interface Refusal {
  state: string;
  adapter: string;
  file: string;
  sha256: string;
  reason: string;
}

export interface RefusalRow extends Refusal {
  id: number;
  refused_at: string;
}

export function createRefusalsRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO refusals (state, adapter, file, sha256, refused_at, reason) VALUES (@state, @adapter, @file, @sha256, @refusedAt, @reason)`,
  );
  const ofState = db.prepare(
    `SELECT id, state, adapter, file, sha256, refused_at, reason FROM refusals WHERE state = ? ORDER BY id DESC`,
  );
  return {
    record(refusal: Refusal, at = new Date()): void {
      insert.run({ ...refusal, refusedAt: formatTimestamp(at) });
      noteOwnWrite(db);
    },
    /** A state's refusals, newest first. */
    list: (state: string) => ofState.all(state) as RefusalRow[],
  };
}
