import type { Db } from "./open-database.ts";
const BATCH = 100;

/**
 * Rows for one INSERT, `columns` values each, sent BATCH rows to a statement; `end()` sends the
 * rest. `sql` ends with VALUES. A statement per row cost about twice as much: each crossing into
 * SQLite costs more than a row's own work.
 */
export function batchInsert(db: Db, sql: string, columns: number) {
  const placeholders = (rows: number) =>
    Array.from({ length: rows }, () => `(${Array.from({ length: columns }, () => "?").join(", ")})`).join(", ");
  const full = db.prepare(`${sql} ${placeholders(BATCH)}`);
  return () => {
    let values: unknown[] = [];
    return {
      add(...row: unknown[]) {
        values.push(...row);
        if (values.length === BATCH * columns) {
          full.run(values);
          values = [];
        }
      },
      end() {
        if (values.length) db.prepare(`${sql} ${placeholders(values.length / columns)}`).run(values);
        values = [];
      },
    };
  };
}
