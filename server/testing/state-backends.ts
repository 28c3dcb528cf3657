import pg from "pg";
import { inject } from "vitest";
import { openStateDb, type Backend, type StateDb } from "../db/state-db.ts";

/** Both backends of the mutable state: every store test runs on each (`describe.each(BACKENDS)`). */
export const BACKENDS: readonly Backend[] = ["sqlite", "postgres"];

let made = 0;

/** A database of its own on the tests' PostgreSQL cluster, empty. */
export async function freshPostgresUrl(name = "test"): Promise<string> {
  const admin = inject("postgresUrl");
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  const database = `${name.replace(/[^a-z0-9_]/gi, "_").toLowerCase()}_${process.pid}_${++made}`;
  try {
    await client.query(`CREATE DATABASE ${database}`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${database}`;
  return url.toString();
}

/** An empty state database on `backend`: a SQLite file in memory, or a PostgreSQL database of its own. */
export async function freshStateDb(backend: Backend, name = "test"): Promise<StateDb> {
  return backend === "postgres"
    ? openStateDb({ url: await freshPostgresUrl(name), poolSize: 4 })
    : openStateDb({ file: ":memory:" });
}
