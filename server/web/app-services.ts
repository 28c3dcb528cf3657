import type { FastifyRequest } from "fastify";
import type { WatchEntry } from "../../src/contract/watchlist.ts";
import { createAccounts } from "./accounts/accounts.ts";
import { signInOptions, signInSettingsFromEnv } from "./accounts/sign-in-settings.ts";
import { databaseUrlFromEnv } from "../db/state-db.ts";
import { DEFAULT_APP_DB, LEGACY_WATCH_DB, openAppState } from "./app-db.ts";
import { APP_VERSION } from "./app-version.ts";
import { createChecksLog } from "./checks/checks-log.ts";
import { checksRoutes } from "./checks/checks-routes.ts";
import { recordWatchlistSeen } from "./checks/record-checks.ts";
import { createServiceReader } from "./watchlist/service-reader.ts";
import { watchSettingsFromEnv } from "./watchlist/watch-settings.ts";
import { createWatchlist } from "./watchlist/watchlist.ts";

// Recording a page's check reads its licenses again: faster than the watchlist's pace, which leaves clerks the key.
const CHECKS_REQUESTS_PER_SECOND = 100;

/**
 * What the app's server holds beside the forwarder, from the environment (README's tables): the app's database
 * (DATABASE_URL's PostgreSQL, else the APP_DB file), its accounts and sessions, the record of checks, and the
 * watchlist, which lives in the APP_DB file.
 */
export async function appServicesFromEnv(
  env: NodeJS.ProcessEnv,
  {
    service,
    appUrl,
    development,
    log = () => {},
  }: {
    service: { baseUrl: string; apiKey: string };
    appUrl: string;
    development: boolean;
    log?: (line: string) => void;
  },
) {
  const settings = signInSettingsFromEnv(env);
  const watchSettings = watchSettingsFromEnv(env, { service, appUrl });
  const file = env.APP_DB?.trim() || DEFAULT_APP_DB;
  const state = await openAppState({
    url: databaseUrlFromEnv(env),
    file,
    watchDb: env.WATCH_DB?.trim() || LEGACY_WATCH_DB,
    log,
  });
  const checksLog = createChecksLog(state, { appVersion: APP_VERSION });
  const checksReader = createServiceReader({ ...service, requestsPerSecond: CHECKS_REQUESTS_PER_SECOND });
  const accounts = createAccounts({
    state,
    audit: (entry) => checksLog.append(entry),
    appUrl: watchSettings.appUrl,
    oidcPolicy: settings.oidcPolicy,
  });
  const watchlist = await createWatchlist({
    ...watchSettings,
    state,
    chainHead: () => checksLog.head(),
    log,
  });
  return {
    file,
    /** Where the app's state is, for messages: the file, or PostgreSQL without its password. */
    where: state.label,
    watchlist,
    checksLog,
    /** TRUST_PROXY, and whether APP_URL is https: what the app's server believes of the hop before it. */
    trustProxy: settings.trustProxy,
    https: watchSettings.appUrl.startsWith("https:"),
    signIn: signInOptions(settings, { accounts, appUrl: watchSettings.appUrl, development }),
    checks: {
      routes: checksRoutes({ log: checksLog, reader: checksReader }),
      onWatchSeen: (request: FastifyRequest, entries: WatchEntry[], zone: string | undefined) =>
        recordWatchlistSeen({ log: checksLog, reader: checksReader, user: request.user!, zone, entries }),
    },
    // The watchlist's jobs end before the database they write to closes (Fastify runs onClose hooks last-first).
    async close() {
      await watchlist.close();
      await state.close();
    },
  };
}
