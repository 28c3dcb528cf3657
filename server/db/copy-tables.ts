import { sql, type Kysely } from "kysely";
import type { StateDb } from "./state-db.ts";

export interface TableCopy {
  name: string;
  /** PostgreSQL numbers its rows itself (a bigserial `id`): its sequence is moved past the ids copied. */
  serialId?: boolean;
  /**
   * Rows the program writes for itself rather than data (the record of checks' head, the session secret): the
   * target's are replaced by the source's, never refused.
   */
  replace?: boolean;
}

/** The rows copied, per table, in the order copied. */
export type Copied = { table: string; rows: number }[];

/** A table of the target already holds rows: nothing was copied. */
export class TargetNotEmptyError extends Error {
  constructor(
    readonly table: string,
    readonly rows: number,
  ) {
    super(`${table} already holds ${rows} row${rows === 1 ? "" : "s"} there`);
    this.name = "TargetNotEmptyError";
  }
}

const BATCH_ROWS = 500;
type Tables = Record<string, Record<string, unknown>>;

/** Tables to copy and the SQLite state they come from. */
export interface CopySource {
  from: StateDb;
  tables: readonly TableCopy[];
}

/**
 * Copies every row of each source's tables, in the order given (a table's references first), from SQLite states
 * into a PostgreSQL one, in one transaction, ids and all, the columns the two have in common. Refuses before
 * copying anything when one of the target's tables (but those to `replace`) holds a row, so that two histories
 * are never merged into one.
 */
export async function copyTables(to: StateDb, sources: readonly CopySource[]): Promise<Copied> {
  if (to.backend !== "postgres" || sources.some(({ from }) => from.backend !== "sqlite")) {
    throw new Error("copies from SQLite into PostgreSQL");
  }
  return (to.db as Kysely<Tables>).transaction().execute(async (target) => {
    for (const { name, replace } of sources.flatMap((s) => s.tables)) {
      // Locked first: a node writing meanwhile waits for the copy rather than slipping a row in beside it.
      await sql`LOCK TABLE ${sql.table(name)} IN EXCLUSIVE MODE`.execute(target);
      if (replace) continue;
      const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(name)}`.execute(target);
      const held = Number(rows[0]!.n);
      if (held > 0) throw new TargetNotEmptyError(name, held);
    }
    const copied: Copied = [];
    for (const { from, tables } of sources) {
      for (const { name, serialId, replace } of tables) {
        const columns = new Set(
          (
            await sql<{ column_name: string }>`SELECT column_name FROM information_schema.columns
              WHERE table_schema = current_schema() AND table_name = ${name}`.execute(target)
          ).rows.map((r) => r.column_name),
        );
        const rows = (await (from.db as Kysely<Tables>).selectFrom(name).selectAll().execute()).map((row) =>
          Object.fromEntries(Object.entries(row).filter(([column]) => columns.has(column))),
        );
        if (replace && rows.length > 0) await target.deleteFrom(name).execute();
        for (let i = 0; i < rows.length; i += BATCH_ROWS) {
          await target
            .insertInto(name)
            .values(rows.slice(i, i + BATCH_ROWS))
            .execute();
        }
        if (serialId && rows.length > 0) {
          await sql`SELECT setval(pg_get_serial_sequence(${name}, 'id'), (SELECT max(id) FROM ${sql.table(name)}))`.execute(
            target,
          );
        }
        copied.push({ table: name, rows: rows.length });
      }
    }
    return copied;
  });
}
