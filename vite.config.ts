import react from "@vitejs/plugin-react";
import { defineConfig, type ProxyOptions, type UserConfig } from "vite";

export interface ApiTarget {
  baseUrl: string;
  apiKey: string;
  /** The watchlist's routes (`npm start` serves them beside the dev server); none with `vite` alone. */
  watchUrl?: string;
}

/**
 * `/v2` goes to the license service with the key added here, on the server side:
 * the key never reaches the browser or the bundle.
 */
function apiProxy({ baseUrl, apiKey, watchUrl }: ApiTarget): Record<string, ProxyOptions> {
  return {
    "/v2": {
      target: baseUrl,
      changeOrigin: true,
      headers: apiKey ? { Authorization: `Bearer ${apiKey}` } : {},
    },
    ...(watchUrl ? { "/api/watchlist": { target: watchUrl } } : {}),
  };
}

/** The app's Vite config, pointed at a service; `npm start` passes its own, `vite` reads LLS_BASE_URL and LLS_API_KEY. */
export function appConfig(target: ApiTarget): UserConfig {
  const proxy = apiProxy(target);
  return {
    plugins: [react()],
    server: { proxy },
    preview: { proxy },
    // The manifest lets `npm run size` follow the chunk graph.
    build: { target: "es2022", sourcemap: true, manifest: true, modulePreload: { polyfill: false } },
  };
}

export default defineConfig(({ command }) => {
  const target = {
    baseUrl: process.env.LLS_BASE_URL || "http://127.0.0.1:8787",
    apiKey: process.env.LLS_API_KEY ?? "",
  };
  if (command === "serve" && !target.apiKey) {
    console.warn("LLS_API_KEY is not set: the service will refuse every /v2 request (npm run keys -- create ...)");
  }
  return appConfig(target);
});
