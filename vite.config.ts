import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin, type ProxyOptions, type UserConfig } from "vite";

/** Where `/v2` (and `/api`) go: the app's own server (`npm start`), or straight to a service with its key (`vite`). */
export type ApiTarget = { appServerUrl: string } | { baseUrl: string; apiKey: string };

/**
 * `npm start` sends `/v2` and `/api` to the app's own server, which holds the key and the session. `vite` alone sends
 * `/v2` to the license service with the key added here, on the server side: the key never reaches the browser or
 * the bundle (and without the app's server there is no sign-in, watchlist or record of checks).
 */
function apiProxy(target: ApiTarget): Record<string, ProxyOptions> {
  if ("appServerUrl" in target) {
    return { "/v2": { target: target.appServerUrl }, "/api": { target: target.appServerUrl } };
  }
  return {
    "/v2": {
      target: target.baseUrl,
      changeOrigin: true,
      headers: target.apiKey ? { Authorization: `Bearer ${target.apiKey}` } : {},
    },
  };
}

const COMPRESSIBLE = /\.(js|css|html|json|svg)$/;
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * Each built script, sheet and page beside it as .br and .gz, at the strongest levels: `npm run serve` sends
 * whichever the browser accepts as it is, so no request pays for compressing (a file that would not shrink stays plain).
 */
function precompress(): Plugin {
  return {
    name: "license-lookup:precompress",
    apply: "build",
    async writeBundle({ dir = "dist" }, bundle) {
      const files = Object.keys(bundle).filter((name) => COMPRESSIBLE.test(name));
      await Promise.all(
        files.map(async (name) => {
          const path = join(dir, name);
          const raw = await readFile(path);
          const [br, gz] = await Promise.all([
            brotli(raw, {
              params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
            }),
            gzipped(raw, { level: 9 }),
          ]);
          if (br.length < raw.length) await writeFile(`${path}.br`, br);
          if (gz.length < raw.length) await writeFile(`${path}.gz`, gz);
        }),
      );
    },
  };
}

/** The app's Vite config, pointed at a service; `npm start` passes its own, `vite` reads LLS_BASE_URL and LLS_API_KEY. */
export function appConfig(target: ApiTarget): UserConfig {
  const proxy = apiProxy(target);
  return {
    plugins: [react(), precompress()],
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
  if (command === "build") {
    // A build says only what needs a person (warnings, errors); LLS_BUILD_LOG=info lists each file and the
    // bundler's slowest plugins, which otherwise read like a warning at every build.
    const verbose = process.env.LLS_BUILD_LOG === "info";
    const config = appConfig(target);
    return {
      ...config,
      logLevel: verbose ? "info" : "warn",
      build: { ...config.build, rolldownOptions: { checks: { bundlerTimings: verbose } } },
    };
  }
  return appConfig(target);
});
