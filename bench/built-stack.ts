import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { chromium, type Browser } from "@playwright/test";
import { freePort } from "../server/testing/free-port.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Refuses to measure without `npm run build`'s output. */
export function requireBuild(): void {
  if (!existsSync(join(ROOT, "dist-server/cli/api.js")) || !existsSync(join(ROOT, "dist/index.html"))) {
    console.error("error: nothing built to measure: run npm run build first");
    process.exit(1);
  }
}

/**
 * The built service on `db` (`npm run api`, at its default rate limit) and the built app server in front of it
 * (`npm run serve`) with `key`, each a node process of its own; the app server's database (users, the record of
 * checks, the watchlist) in `dir`, holding the bench's own administrator, signed in: `cookie` for a request,
 * `newPage` for a browser's page.
 * `apiArgs` adds to `npm run api`'s options (another `--rate-limit`, say); `env` to the app server's.
 */
export async function startBuiltStack({
  db,
  key,
  dir,
  env = {},
  apiArgs = [],
}: {
  db: string;
  key: string;
  dir: string;
  env?: Record<string, string>;
  apiArgs?: string[];
}) {
  const children: ChildProcess[] = [];
  const start = (args: string[], extra: Record<string, string> = {}) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, ...extra },
      stdio: ["ignore", "ignore", "inherit"],
    });
    children.push(child);
    return child;
  };
  const stop = async () => {
    children.forEach((child) => child.kill("SIGTERM"));
    const running = children.filter((c) => c.exitCode === null && c.signalCode === null);
    await Promise.all(running.map((c) => new Promise((resolve) => c.once("exit", resolve))));
  };
  const [apiPort, webPort] = [await freePort(), await freePort()];
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const appUrl = `http://127.0.0.1:${webPort}`;
  try {
    const api = start(["dist-server/cli/api.js", "--db", db, "--port", String(apiPort), "--quiet", ...apiArgs]);
    await waitFor(`${apiUrl}/v2/states`);
    const appDb = join(dir, "app.sqlite");
    const added = spawnSync(
      process.execPath,
      ["--import", "tsx", "server/cli/users.ts", "add", BENCH_USER, "--role", "admin", "--password-stdin"],
      { cwd: ROOT, input: `${BENCH_PASSWORD}\n`, env: { ...process.env, APP_DB: appDb }, encoding: "utf8" },
    );
    if (added.status !== 0) throw new Error(`npm run users -- add failed: ${added.stderr}`);
    const web = start(["dist-server/web/main.js"], {
      LLS_BASE_URL: apiUrl,
      LLS_API_KEY: key,
      PORT: String(webPort),
      HOST: "127.0.0.1",
      LOG: "0",
      APP_DB: appDb,
      ...env,
    });
    await waitFor(`${appUrl}/`);
    const signedIn = await fetch(`${appUrl}/api/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: BENCH_USER, password: BENCH_PASSWORD }),
    });
    const set = signedIn.headers.getSetCookie().find((c) => c.startsWith("lls_session="));
    if (!signedIn.ok || !set) throw new Error(`the bench could not sign in: ${signedIn.status}`);
    const [name, value] = set.split(";", 1)[0]!.split(/=(.*)/s) as [string, string];
    const newPage = async (browser: Browser) => {
      const context = await browser.newContext();
      await context.addCookies([{ name, value, url: appUrl }]);
      return context.newPage();
    };
    return { apiUrl, appUrl, apiPid: api.pid!, webPid: web.pid!, stop, cookie: `${name}=${value}`, newPage };
  } catch (error) {
    await stop();
    throw error;
  }
}

const BENCH_USER = "bench@example.com";
const BENCH_PASSWORD = "the bench's own password";

/** Debian's Chromium where there is one, else Playwright's own. */
export function launchChromium() {
  return chromium.launch(
    existsSync("/usr/bin/chromium")
      ? {
          executablePath: "/usr/bin/chromium",
          args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
        }
      : {},
  );
}

async function waitFor(url: string) {
  for (let i = 0; i < 200; i++) {
    try {
      await fetch(url);
      return;
    } catch {
      // not up yet
    }
    await sleep(50);
  }
  throw new Error(`${url} did not answer`);
}
