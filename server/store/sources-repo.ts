import { batchInsert } from "./batch-insert.ts";
import type { Db } from "./open-database.ts";
import { formatTimestamp } from "./timestamp.ts";

/** A source as an import registers it: one file an agency published (or generated demo data). */
export interface NewSource {
  state: string;
  adapter: string;
  /** Observations of one family are one series over time: a newer roster of a family replaces an older one. */
  family: string;
  kind: "roster" | "changes";
  /**
   * A roster cut from a fuller list (rows its publisher dropped): a license it names is as it says,
   * but one it leaves out is not thereby gone. Absent: a whole list.
   */
  partial?: boolean;
  agency: string;
  title: string;
  coverage: string;
  file: string | null;
  sha256: string | null;
  bytes: number | null;
  asOf: string | null;
  asOfFrom: string;
}

/** What one source says of one license, on one date. */
export interface Observation {
  license: string;
  asOf: string | null;
  /** The adapter's own shape: a license record for rosters, a status change for change reports. */
  facts: unknown;
  line: number;
}

/** An observation read back, with what the store knows of its source. */
export interface StoredObservation extends Observation {
  sourceId: number;
  /** Its place in its source: the order the file gave it in. */
  seq: number;
  adapter: string;
  family: string;
  kind: NewSource["kind"];
  /** The source's own as-of date (the file's), beside the observation's. */
  sourceAsOf: string | null;
}

export interface SourceRow {
  id: number;
  state: string;
  adapter: string;
  family: string;
  kind: NewSource["kind"];
  /** NewSource's `partial`, as SQLite keeps it. */
  partial: 0 | 1;
  agency: string;
  title: string;
  coverage: string;
  file: string | null;
  sha256: string | null;
  as_of: string | null;
  as_of_from: string;
  loaded_at: string;
}

const SOURCE_COLUMNS = `id, state, adapter, family, kind, partial, agency, title, coverage, file, sha256, as_of, as_of_from, loaded_at`;

/**
 * The sources of each state and what each said of each license: the store keeps every word, so a
 * state's live records can be made again from them (the newest source's facts win) and a
 * license's history read off them.
 */
export function createSourcesRepo(db: Db) {
  const insertSource = db.prepare(
    `INSERT INTO sources (state, adapter, family, kind, partial, agency, title, coverage, file, sha256, bytes, as_of, as_of_from, loaded_at, status)
     VALUES (@state, @adapter, @family, @kind, @partial, @agency, @title, @coverage, @file, @sha256, @bytes, @asOf, @asOfFrom, @loadedAt, 'loading')`,
  );
  const insertObservations = batchInsert(
    db,
    `INSERT INTO observations (source_id, license, as_of, facts, line) VALUES`,
    5,
  );
  const byFile = db.prepare(
    `SELECT ${SOURCE_COLUMNS} FROM sources WHERE state = ? AND sha256 = ? AND status = 'loaded'`,
  );
  const ofState = db.prepare(
    `SELECT ${SOURCE_COLUMNS} FROM sources
     WHERE state = ? AND (status = 'loaded' OR id IN (SELECT value FROM json_each(?))) ORDER BY id`,
  );
  const all = db.prepare(`SELECT ${SOURCE_COLUMNS} FROM sources WHERE status = 'loaded' ORDER BY state, id`);

  /** Drops sources (and what they said) matching a condition on the sources table; nests in a transaction. */
  const drop = (where: string, ...params: unknown[]) =>
    db.transaction(() => {
      db.prepare(`DELETE FROM observations WHERE source_id IN (SELECT id FROM sources WHERE ${where})`).run(...params);
      return db.prepare(`DELETE FROM sources WHERE ${where}`).run(...params).changes;
    })();

  return {
    /** Registers a source as loading: its observations count only once the import makes it loaded. */
    begin(source: NewSource, loadedAt = new Date()): number {
      const { lastInsertRowid } = insertSource.run({
        ...source,
        partial: source.partial === true ? 1 : 0,
        loadedAt: formatTimestamp(loadedAt),
      });
      return Number(lastInsertRowid);
    },

    /** Stores what a source says of its licenses; call inside a transaction for speed. */
    observe: (sourceId: number, observations: Iterable<Observation>) => {
      const rows = insertObservations();
      for (const o of observations) rows.add(sourceId, o.license, o.asOf, JSON.stringify(o.facts), o.line);
      rows.end();
    },

    /** Makes these sources count; meant to run in the transaction that makes the state's new records live. */
    markLoaded(ids: readonly number[]): void {
      const mark = db.prepare(`UPDATE sources SET status = 'loaded' WHERE id = ?`);
      for (const id of ids) mark.run(id);
    },

    /** The loaded source of this state with exactly this content, if an import already took it. */
    sameFile: (state: string, sha256: string) => byFile.get(state, sha256) as SourceRow | undefined,

    /** Loaded sources, of one state (and those of its being loaded) or of all, oldest first. */
    list: (state?: string, loading: readonly number[] = []) =>
      (state === undefined ? all.all() : ofState.all(state, JSON.stringify(loading))) as SourceRow[],

    /**
     * What every loaded source of a state said, and the sources being loaded (`loading`): in the
     * order the sources were loaded, then file order. `except`: sources whose words the caller has.
     */
    *observationsOf(
      state: string,
      { loading = [], except = [] }: { loading?: readonly number[]; except?: readonly number[] } = {},
    ): Generator<StoredObservation> {
      const rows = db
        .prepare(
          `SELECT o.source_id AS sourceId, s.adapter, s.family, s.kind, s.as_of AS sourceAsOf,
                  o.license, o.as_of AS asOf, o.facts AS doc, o.line, o.id AS seq
           FROM observations o JOIN sources s ON s.id = o.source_id
           WHERE s.state = ? AND (s.status = 'loaded' OR s.id IN (SELECT value FROM json_each(?)))
             AND s.id NOT IN (SELECT value FROM json_each(?))
           ORDER BY o.source_id, o.id`,
        )
        .iterate(state, JSON.stringify(loading), JSON.stringify(except)) as IterableIterator<
        Omit<StoredObservation, "facts"> & { doc: string }
      >;
      for (const { doc, ...row } of rows) yield { ...row, facts: JSON.parse(doc) as unknown };
    },

    /** Sources a failed or killed import left loading, with what they said. */
    dropAbandoned: (state: string) => drop(`state = ? AND status = 'loading'`, state),

    /** Every source of a state but these: when a state starts over (demo data, an import with --replace). */
    dropAllBut: (state: string, keep: readonly number[]) =>
      drop(`state = ? AND id NOT IN (SELECT value FROM json_each(?))`, state, JSON.stringify(keep)),

    /**
     * A state's sources that said nothing the store kept (demo data, sources loaded before it kept
     * what each said), but these: when the state's records are made from what the others said.
     */
    dropSilent: (state: string, keep: readonly number[]) =>
      drop(
        `state = ? AND id NOT IN (SELECT value FROM json_each(?)) AND id NOT IN (SELECT DISTINCT source_id FROM observations)`,
        state,
        JSON.stringify(keep),
      ),
  };
}

export type SourcesRepo = ReturnType<typeof createSourcesRepo>;
