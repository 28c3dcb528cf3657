import type { ServedSnapshot } from "../../../src/contract/envelopes.ts";
import type { LicenseRepo } from "../license-repo.ts";
import type { Db } from "../open-database.ts";

/** One opened copy of the license data: its connection, its repository, and the snapshot it is (null: a local file). */
export interface LoadedData {
  db: Db;
  repo: LicenseRepo;
  snapshot: ServedSnapshot | null;
  /** Called once its connection has closed: the follower deletes the file. */
  retired?: () => void;
}

/**
 * The license repository the routes are given, routing each call to the data loaded last. Route handlers are
 * synchronous (snapshot-header.ts refuses others) and a swap runs in a step of its own, so every call one
 * request makes reaches the same data: no request sees half of two snapshots.
 */
export function createLicenseHolder() {
  let current: LoadedData | null = null;
  const repo = (): LicenseRepo => {
    if (!current) throw new Error("no license data is loaded yet");
    return current.repo;
  };
  const licenses: LicenseRepo = {
    get: (state, license) => repo().get(state, license),
    search: (query) => repo().search(query),
    searchWithProvenance: (query) => repo().searchWithProvenance(query),
    coverage: () => repo().coverage(),
    provenance: (state, license) => repo().provenance(state, license),
    getMany: (state, numbers) => repo().getMany(state, numbers),
    provenanceMany: (state, numbers) => repo().provenanceMany(state, numbers),
    history: (state, license) => repo().history(state, license),
    has: (state) => repo().has(state),
  };
  return {
    licenses,
    /** The snapshot served now: null before any, or while a local file is served. */
    served: (): ServedSnapshot | null => current?.snapshot ?? null,
    loaded: () => current !== null,
    /**
     * Serves `next` from now on. The old connection closes on the next turn: no handler can still be using it
     * (they run to their end in one step), and its turn's read transaction has ended by then.
     */
    swap(next: LoadedData): void {
      const old = current;
      current = next;
      if (old) setImmediate(() => retire(old));
    },
    close(): void {
      if (current) retire(current);
      current = null;
    },
  };
}

function retire(data: LoadedData): void {
  data.db.close();
  data.retired?.();
}

export type LicenseHolder = ReturnType<typeof createLicenseHolder>;
