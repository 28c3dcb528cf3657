import type { TableCopy } from "../db/copy-tables.ts";
import { idType, migrateStateDb, openStateDb, type MigrationSet, type StateDb } from "../db/state-db.ts";

/**
 * The service's own tables on PostgreSQL (DATABASE_URL), under the migration tables `service_migrations*`. On
 * SQLite the same api_keys table is the license file's own (migrations.ts): one set of queries reads both.
 */
export const SERVICE_MIGRATIONS: MigrationSet = {
  "2026-11-26-service-api-keys": (backend) => ({
    async up(db) {
      await db.schema
        .createTable("api_keys")
        .ifNotExists()
        .addColumn("id", idType(backend), (c) => c.primaryKey())
        .addColumn("hash", "text", (c) => c.notNull().unique())
        .addColumn("states", "text", (c) => c.notNull())
        .addColumn("label", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("revoked_at", "text")
        .execute();
    },
  }),
};

/** The service's tables a SQLite file's are copied into by `npm run migrate -- --take-over`. */
export const SERVICE_TABLES: readonly TableCopy[] = [{ name: "api_keys", serialId: true }];

/** The service's mutable state on PostgreSQL (DATABASE_URL), brought up to date: its keys live there. */
export async function openServiceState(databaseUrl: string): Promise<StateDb> {
  const state = openStateDb({ url: databaseUrl });
  try {
    await migrateStateDb(state, "service", SERVICE_MIGRATIONS);
  } catch (error) {
    await state.close();
    throw new Error(
      `cannot use PostgreSQL at ${state.label} for API keys (${(error as Error).message}): check DATABASE_URL and that PostgreSQL is running`,
    );
  }
  return state;
}
