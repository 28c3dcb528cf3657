import Fastify from "fastify";
import { fileURLToPath } from "node:url";
import { createServer } from "vite";
import { appConfig } from "../../vite.config.ts";
import { watchRoutes } from "../web/watchlist/watch-routes.ts";
import type { WatchlistService } from "../web/watchlist/watchlist.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface StartAppOptions {
  apiBaseUrl: string;
  apiKey: string;
  /** Default LLS_APP_PORT, else 5173; the next free port when taken. */
  port?: number;
  /** Served beside the dev server, which forwards /api/watchlist to it. */
  watchlist?: WatchlistService;
}

/**
 * The app in Vite's dev server, its `/v2` proxy pointing at the service with the key added server-side.
 * It listens on 127.0.0.1 only: anyone who can reach the proxy can use the key.
 */
export async function startApp({ apiBaseUrl, apiKey, port, watchlist }: StartAppOptions) {
  const watch = watchlist ? Fastify() : null;
  let watchUrl: string | undefined;
  if (watch && watchlist) {
    await watch.register(watchRoutes(watchlist));
    watch.addHook("onClose", () => watchlist.close());
    watchUrl = await watch.listen({ host: "127.0.0.1", port: 0 });
  }
  const config = appConfig({ baseUrl: apiBaseUrl, apiKey, watchUrl });
  const server = await createServer({
    ...config,
    root: ROOT,
    configFile: false,
    server: { ...config.server, host: "127.0.0.1", port: port ?? Number(process.env.LLS_APP_PORT ?? 5173) },
  });
  await server.listen();
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error("the app's dev server started but reports no address");
  return {
    url,
    close: async () => {
      await server.close();
      await watch?.close();
    },
  };
}
