import type { TestProject } from "vitest/node";
import { startPostgres } from "./engines.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The server tests' PostgreSQL cluster (superuser URL): `stateDbFor("postgres")` makes a database a test. */
    postgresUrl: string;
  }
}

/** One PostgreSQL for the server tests, started once: each test that asks gets a database of its own on it. */
export default async function setup(project: TestProject) {
  const postgres = await startPostgres();
  project.provide("postgresUrl", postgres.url);
  return () => postgres.stop();
}
