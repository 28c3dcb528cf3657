import { buildApp } from "./app.ts";
import { drainOnClose } from "../http/drain-on-close.ts";
import { bufferedStdout } from "../http/request-log.ts";
import type { RateLimitOptions } from "./rate-limit.ts";
import { readInTurnSnapshots } from "../store/change-watch.ts";
import { openStateDb, type StateDb } from "../db/state-db.ts";
import { createKeyRepo } from "./key-repo.ts";
import { createLicenseRepo } from "../store/license-repo.ts";
import { openDatabase } from "../store/open-database.ts";
import { openServiceState } from "../store/service-state.ts";
import { unreachableReason } from "../http/health-routes.ts";
import { startSnapshotFollower, type SnapshotFollower } from "../store/snapshots/snapshot-follower.ts";

export interface ServerOptions {
  db: string;
  port: number;
  host: string;
  /** Log one JSON line per request (off in tests). */
  log?: boolean;
  rateLimit?: RateLimitOptions | false;
  /**
   * DATABASE_URL: the API keys live in PostgreSQL, shared by every node, and the license data is the newest
   * snapshot published there (kept beside `db`, which is served only while none is); else both in `db`, as before.
   */
  databaseUrl?: string | null;
}

export class StartupError extends Error {}

/** Opens the database, builds the service and listens. Resolves once it accepts connections. */
export async function startServer(options: ServerOptions) {
  // Several nodes: the newest published snapshot, fetched before the node listens and swapped as new ones come.
  const follower = options.databaseUrl ? await startSnapshotFollower(options.databaseUrl, options.db) : null;
  await follower?.loaded;
  const db = follower ? null : openDatabase(options.db, { migrate: false });
  // The service only reads: each event-loop turn's requests share one read transaction.
  if (db) readInTurnSnapshots(db);
  const log = options.log ? bufferedStdout() : null;
  const { keys, keyState, readiness } = await openKeys(db, options.databaseUrl ?? null, follower);
  const app = buildApp({
    licenses: follower?.licenses ?? createLicenseRepo(db!),
    keys,
    logger: log ? { level: "info", stream: log.stream } : false,
    rateLimit: options.rateLimit,
    readiness: follower ? async () => [...((await readiness?.()) ?? []), ...follower.snapshotReadiness()] : readiness,
    snapshot: follower?.served,
  });
  drainOnClose(app);
  app.addHook("onClose", async () => {
    await keys.close();
    await keyState.close();
    await follower?.close();
    db?.close();
    log?.flush();
  });
  try {
    await app.listen({ port: options.port, host: options.host });
  } catch (error) {
    await app.close();
    if ((error as { code?: string }).code === "EADDRINUSE") {
      throw new StartupError(
        `port ${options.port} on ${options.host} is already in use: stop what holds it or pass --port N`,
      );
    }
    throw error;
  }
  const snapshotReadiness = (): string[] => follower?.snapshotReadiness() ?? [];
  return {
    app,
    snapshotReadiness,
    url: `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${options.port}`,
  };
}

/** The API keys: in the license file, or in PostgreSQL, loaded and followed before the node listens. */
async function openKeys(
  licenseDb: ReturnType<typeof openDatabase> | null,
  databaseUrl: string | null,
  follower: SnapshotFollower | null,
) {
  const closeData = async () => {
    licenseDb?.close();
    await follower?.close();
  };
  let keyState: StateDb;
  try {
    keyState = databaseUrl ? await openServiceState(databaseUrl) : openStateDb({ sqlite: licenseDb! });
  } catch (error) {
    await closeData();
    throw new StartupError((error as Error).message);
  }
  const keys = createKeyRepo(keyState, { log: (line) => console.error(line) });
  try {
    await keys.follow();
  } catch (error) {
    await keys.close();
    await keyState.close();
    await closeData();
    throw new StartupError(`cannot read the API keys from ${keyState.label}: ${(error as Error).message}`);
  }
  const readiness = databaseUrl ? () => unreachableReason(keyState, "PostgreSQL") : undefined;
  return { keys, keyState, readiness };
}
