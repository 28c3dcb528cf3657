import Database from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Migration } from "kysely";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import pg from "pg";
import { withLock } from "./advisory-lock.ts";

/**
 * The mutable state's database: a SQLite file by default, PostgreSQL when DATABASE_URL names one. Every store
 * writes its queries once, through Kysely, and runs on both.
 */
export type Backend = "sqlite" | "postgres";

export interface StateDb {
  // The stores cast it to their own tables' types.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  db: Kysely<any>;
  backend: Backend;
  /** Where it is, without a password: for messages. */
  label: string;
  /** The SQLite connection under it (the legacy takeovers and the license file's readers need it); null on PostgreSQL. */
  sqlite: Database.Database | null;
  /** The PostgreSQL pool under it (LISTEN, large objects, the job queue); null on SQLite. */
  pool: pg.Pool | null;
  close(): Promise<void>;
}

/** A feature's migrations, named so that their order is the order of their names. */
export type MigrationSet = Record<string, (backend: Backend) => Migration>;

// count(*) and bigserial come back from PostgreSQL as strings: every count and id here fits a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (text) => Number(text));

export function isPostgresUrl(value: string | undefined): boolean {
  return value !== undefined && /^postgres(ql)?:\/\//.test(value.trim());
}

/** DATABASE_URL when it names PostgreSQL; null: each program keeps its SQLite file. */
export function databaseUrlFromEnv(env: NodeJS.ProcessEnv): string | null {
  const url = env.DATABASE_URL?.trim();
  if (!url) return null;
  if (!isPostgresUrl(url)) {
    throw new Error(`DATABASE_URL must be a postgres:// URL (or unset for the SQLite files), not "${url}"`);
  }
  return url;
}

export function withoutPassword(url: string): string {
  const parsed = URL.parse(url);
  if (!parsed) return "PostgreSQL";
  parsed.password = "";
  return parsed.toString();
}

/** Opens PostgreSQL at `url`, or the SQLite file (created when absent), or wraps an open SQLite connection. */
export function openStateDb(
  target: { url: string; poolSize?: number } | { file: string } | { sqlite: Database.Database },
): StateDb {
  if ("url" in target) {
    const pool = new pg.Pool({ connectionString: target.url, max: target.poolSize ?? 10 });
    // A client's error (the server restarted, the connection ended) is its query's, or the next one's, to report,
    // not the process's end: the pool hears an idle client's, but a client checked out between two queries (a
    // transaction, a lock held) has no listener of the pool's, and an unheard error would end the process.
    pool.on("error", () => {});
    pool.on("connect", (client) => client.on("error", () => {}));
    const db = new Kysely({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      backend: "postgres",
      label: withoutPassword(target.url),
      sqlite: null,
      pool,
      close: () => db.destroy(),
    };
  }
  let sqlite: Database.Database;
  let owned = false;
  if ("file" in target) {
    if (target.file !== ":memory:") mkdirSync(dirname(target.file), { recursive: true });
    sqlite = new Database(target.file);
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma("busy_timeout = 5000");
    owned = true;
  } else {
    sqlite = target.sqlite;
  }
  sqlite.pragma("foreign_keys = ON");
  const db = new Kysely({ dialect: new SqliteDialect({ database: sqlite }) });
  return {
    db,
    backend: "sqlite",
    label: sqlite.name,
    sqlite,
    pool: null,
    // Destroying the dialect closes the connection; one lent to us stays open for its owner.
    close: async () => {
      if (owned) await db.destroy();
    },
  };
}

/** Brings the database up to the newest of these migrations, under the migrator's lock (one node at a time). */
export async function migrateStateDb(state: StateDb, table: string, ...sets: MigrationSet[]): Promise<string[]> {
  const migrations: Record<string, Migration> = {};
  for (const set of sets) {
    for (const [name, make] of Object.entries(set)) migrations[name] = make(state.backend);
  }
  const migrator = new Migrator({
    db: state.db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    migrationTableName: `${table}_migrations`,
    migrationLockTableName: `${table}_migrations_lock`,
    // Features add their migrations side by side: one written earlier but merged later still runs.
    allowUnorderedMigrations: true,
  });
  const migrate = () => migrator.migrateToLatest();
  // Nodes starting at once make their schemas in turn rather than colliding on the same CREATE (a duplicate key,
  // or a deadlock).
  const { error, results = [] } = await (state.pool
    ? withLock(state.pool, `lls:migrate ${table}`, migrate)
    : migrate());
  if (error) {
    const failed = results.find((r) => r.status === "Error");
    throw new Error(
      `cannot bring ${state.label} up to date${failed ? ` (migration ${failed.migrationName})` : ""}: ${(error as Error).message}`,
    );
  }
  return results.filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/** An integer key the database numbers itself. */
export function idType(backend: Backend) {
  return backend === "postgres" ? ("bigserial" as const) : ("integer" as const);
}

/** True once the database answers (readiness). */
export async function reachable(state: StateDb): Promise<boolean> {
  try {
    await sql`SELECT 1`.execute(state.db);
    return true;
  } catch {
    return false;
  }
}
