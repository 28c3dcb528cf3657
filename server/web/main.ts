import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildWebApp } from "./web-app.ts";

/**
 * `npm run serve`: the built app and the `/v2` forwarder in one process.
 * LLS_API_KEY (required), LLS_BASE_URL (default http://127.0.0.1:8787), HOST (127.0.0.1), PORT (4173).
 */
const apiKey = process.env.LLS_API_KEY;
if (!apiKey) {
  console.error("error: LLS_API_KEY is not set: give the key the app should present to the license service");
  process.exit(1);
}
const distDir = fileURLToPath(new URL("../../dist", import.meta.url));
if (!existsSync(join(distDir, "index.html"))) {
  console.error(`error: ${distDir} holds no built app: run npm run build first`);
  process.exit(1);
}
const host = process.env.HOST ?? "127.0.0.1";
const port = Number(process.env.PORT ?? 4173);
const app = await buildWebApp({
  distDir,
  apiBaseUrl: process.env.LLS_BASE_URL || "http://127.0.0.1:8787",
  apiKey,
  logger: process.env.LOG !== "0",
});

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => void app.close().then(() => process.exit(0)));
}
try {
  await app.listen({ host, port });
  console.log(`License Lookup is running: open http://${host}:${port}/`);
} catch (error) {
  console.error(`error: ${(error as Error).message}`);
  process.exit(1);
}
