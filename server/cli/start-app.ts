import { fileURLToPath } from "node:url";
import { createServer } from "vite";
import { appConfig } from "../../vite.config.ts";
import { buildWebApp, type WebAppOptions } from "../web/web-app.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface StartAppOptions extends Omit<WebAppOptions, "distDir" | "logger"> {
  /** Default LLS_APP_PORT, else 5173; the next free port when taken. */
  port?: number;
}

/**
 * The app in Vite's dev server, with the app's own server beside it on a port of its own: Vite sends `/v2` and
 * `/api` there, where the key is added and the session, the watchlist and the record of checks are kept, as in
 * production. Both listen on 127.0.0.1 only: anyone who can reach them can use the key.
 */
export async function startApp({ port, ...options }: StartAppOptions) {
  const server = await buildWebApp(options);
  const appServerUrl = await server.listen({ host: "127.0.0.1", port: 0 });
  const config = appConfig({ appServerUrl });
  const vite = await createServer({
    ...config,
    root: ROOT,
    configFile: false,
    server: { ...config.server, host: "127.0.0.1", port: port ?? Number(process.env.LLS_APP_PORT ?? 5173) },
  });
  await vite.listen();
  const url = vite.resolvedUrls?.local[0];
  if (!url) throw new Error("the app's dev server started but reports no address");
  return {
    url,
    close: async () => {
      await vite.close();
      await server.close();
    },
  };
}
