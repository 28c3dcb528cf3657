import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { closeOnSignals } from "../http/close-on-signals.ts";
import { drainOnClose } from "../http/drain-on-close.ts";
import { buildWebApp, DEFAULT_CACHE_TTL_MS, DEFAULT_UPSTREAM_TIMEOUT_MS } from "./web-app.ts";
import { appServicesFromEnv } from "./app-services.ts";

/**
 * `npm run serve`: the built app and the `/v2` forwarder in one process.
 * LLS_API_KEY (required), LLS_BASE_URL (default http://127.0.0.1:8787), HOST (127.0.0.1), PORT (4173),
 * LLS_TIMEOUT_MS (how long the service may take before the app gets a 504; default 10000),
 * LLS_CACHE_SECONDS (how long a license answer is reused; default 60, 0: never),
 * CORS_ORIGIN (comma-separated origins whose pages may read /v2; default none);
 * APP_DB (the app's database: users, sessions, the record of checks, the watchlist; default data/app.sqlite),
 * DATABASE_URL (postgres://…: users, sessions and the record of checks there instead, shared by every app node),
 * TRUST_PROXY (the proxies whose X-Forwarded-For and -Proto are believed), sign-in's SESSION_* and OIDC_*
 * (docs/operating.md's "Sign-in and roles"), the watchlist's WATCH_* and SMTP_URL (README's "Watchlist").
 */
const apiKey = process.env.LLS_API_KEY;
if (!apiKey) {
  console.error("error: LLS_API_KEY is not set: give the key the app should present to the license service");
  process.exit(1);
}
// dist-server/web/main.js, which `npm run serve` runs, sits as deep as this file: one path finds the app from both.
const distDir = fileURLToPath(new URL("../../dist", import.meta.url));
if (!existsSync(join(distDir, "index.html"))) {
  console.error(`error: ${distDir} holds no built app: run npm run build first`);
  process.exit(1);
}
const upstreamTimeoutMs = Number(process.env.LLS_TIMEOUT_MS || DEFAULT_UPSTREAM_TIMEOUT_MS);
if (!Number.isInteger(upstreamTimeoutMs) || upstreamTimeoutMs <= 0) {
  console.error(
    `error: LLS_TIMEOUT_MS must be a whole number of milliseconds above 0, not "${process.env.LLS_TIMEOUT_MS}"`,
  );
  process.exit(1);
}
const cacheSeconds = Number(process.env.LLS_CACHE_SECONDS || DEFAULT_CACHE_TTL_MS / 1000);
if (!Number.isInteger(cacheSeconds) || cacheSeconds < 0) {
  console.error(
    `error: LLS_CACHE_SECONDS must be a whole number of seconds, 0 or more, not "${process.env.LLS_CACHE_SECONDS}"`,
  );
  process.exit(1);
}
const host = process.env.HOST ?? "127.0.0.1";
const port = Number(process.env.PORT ?? 4173);
const apiBaseUrl = process.env.LLS_BASE_URL || "http://127.0.0.1:8787";
const logger = process.env.LOG !== "0";
let services;
try {
  services = await appServicesFromEnv(process.env, {
    service: { baseUrl: apiBaseUrl, apiKey },
    appUrl: `http://${host}:${port}`,
    development: false,
    log: logger ? (line) => console.log(line) : undefined,
  });
} catch (error) {
  console.error(`error: ${(error as Error).message}`);
  process.exit(1);
}
const app = await buildWebApp({
  distDir,
  apiBaseUrl,
  apiKey,
  upstreamTimeoutMs,
  cacheTtlMs: cacheSeconds * 1000,
  corsOrigins: (process.env.CORS_ORIGIN ?? "")
    .split(",")
    .map((origin) => origin.trim())
    .filter(Boolean),
  watchlist: services.watchlist,
  signIn: services.signIn,
  checks: services.checks,
  trustProxy: services.trustProxy,
  https: services.https,
  logger,
});
app.addHook("onClose", () => services.close());

drainOnClose(app);
// A forwarded request may take up to its timeout: the grace lets the slowest one get its answer.
closeOnSignals(() => app.close(), { graceMs: upstreamTimeoutMs + 1000 });
try {
  await app.listen({ host, port });
  console.log(`License Lookup is running: open http://${host}:${port}/`);
  if ((await services.signIn.accounts.store.count()) === 0) {
    const where = process.env.DATABASE_URL?.trim() ? "with the same DATABASE_URL," : `with APP_DB=${services.file}`;
    console.warn(
      `No one can sign in yet: add the first administrator ${where} npm run users -- add EMAIL --role admin`,
    );
  }
} catch (error) {
  console.error(`error: ${(error as Error).message}`);
  process.exit(1);
}
