import type { Statement } from "better-sqlite3";
import type { Db } from "./open-database.ts";

const caches = new WeakMap<Db, Map<string, Statement<unknown[]>>>();

/** Statements over per-data-set tables, prepared once per connection and SQL text. */
export function statementCache(db: Db): (sql: string) => Statement<unknown[]> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map<string, Statement<unknown[]>>()));
  const statements = cache;
  return (sql) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare<unknown[]>(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
}
