import { buildApp } from "./app.ts";
import { drainOnClose } from "./drain-on-close.ts";
import { bufferedStdout } from "./request-log.ts";
import type { RateLimitOptions } from "./rate-limit.ts";
import { readInTurnSnapshots } from "./store/change-watch.ts";
import { createKeyRepo } from "./store/key-repo.ts";
import { createLicenseRepo } from "./store/license-repo.ts";
import { openDatabase } from "./store/open-database.ts";

export interface ServerOptions {
  db: string;
  port: number;
  host: string;
  /** Log one JSON line per request (off in tests). */
  log?: boolean;
  rateLimit?: RateLimitOptions | false;
}

export class StartupError extends Error {}

/** Opens the database, builds the service and listens. Resolves once it accepts connections. */
export async function startServer(options: ServerOptions) {
  const db = openDatabase(options.db, { migrate: false });
  // The service only reads: each event-loop turn's requests share one read transaction.
  readInTurnSnapshots(db);
  const log = options.log ? bufferedStdout() : null;
  const app = buildApp({
    licenses: createLicenseRepo(db),
    keys: createKeyRepo(db),
    logger: log ? { level: "info", stream: log.stream } : false,
    rateLimit: options.rateLimit,
  });
  drainOnClose(app);
  app.addHook("onClose", (_instance, done) => {
    db.close();
    log?.flush();
    done();
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
  return { app, url: `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${options.port}` };
}
