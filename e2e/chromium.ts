import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";

/**
 * The Chromium the end-to-end tests drive, found the same way everywhere: `$CHROMIUM_PATH`, else a
 * Chromium installed on the machine, else Playwright's own download. `ensureChromium` (run by
 * `npm test` before anything else) installs one when none is found.
 *
 * The headless shell comes first: it is the old headless mode, which Playwright itself uses for
 * headless runs, and the suite costs a third less CPU in it than in the full browser.
 */
const SYSTEM_CHROMIUMS = [
  "/usr/bin/chromium-headless-shell",
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
];

/** Flags for a system Chromium: as root it needs `--no-sandbox`, and a closed network refuses its background calls. */
const SYSTEM_ARGS = [
  "--no-sandbox",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-gpu",
];

export type ChromiumFound = { executablePath?: string; how: string };

/** The browser to drive, or null when this machine has none. */
export function findChromium(): ChromiumFound | null {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return { executablePath: fromEnv, how: "$CHROMIUM_PATH" };
  const system = SYSTEM_CHROMIUMS.find((path) => existsSync(path));
  if (system) return { executablePath: system, how: "installed on this machine" };
  if (existsSync(chromium.executablePath())) return { how: "Playwright's own download" };
  return null;
}

/** Launch options for Playwright: the system browser with its flags, or Playwright's own with none. */
export function chromiumLaunchOptions(found = findChromium()) {
  return found?.executablePath ? { executablePath: found.executablePath, args: SYSTEM_ARGS } : {};
}

/**
 * Finds Chromium, or installs one: Debian's `chromium` through apt-get when this process may (root, apt-get present),
 * else Playwright's own download where the network allows it. Throws one sentence of what to install when neither works.
 */
export function ensureChromium(log: (line: string) => void): ChromiumFound {
  const found = findChromium();
  if (found) return found;
  const tried: string[] = [];

  if (process.getuid?.() === 0 && onPath("apt-get")) {
    log("Chromium: none found; installing Debian's chromium-headless-shell with apt-get");
    const ok =
      run("apt-get", ["update", "-qq"]) &&
      run("apt-get", ["install", "-y", "-qq", "--no-install-recommends", "chromium-headless-shell"], {
        DEBIAN_FRONTEND: "noninteractive",
      });
    const now = findChromium();
    if (ok && now) return now;
    tried.push("apt-get install chromium-headless-shell failed");
  } else {
    tried.push(onPath("apt-get") ? "apt-get needs root" : "no apt-get");
  }

  log("Chromium: installing Playwright's own (npx playwright install chromium)");
  // Its errors are one per retry of a download the network refuses: the sentence below says it once.
  const cli = createRequire(import.meta.url).resolve("@playwright/test/cli");
  if (run(process.execPath, [cli, "install", "chromium"], {}, "ignore")) {
    const now = findChromium();
    if (now) return now;
  }
  tried.push("Playwright's download failed");

  throw new Error(
    `The end-to-end tests need Chromium and none could be installed (${tried.join("; ")}): ` +
      `install it (Debian: sudo apt-get install chromium-headless-shell; elsewhere: npx playwright install chromium) ` +
      `or set CHROMIUM_PATH to a Chromium or Chrome executable, then run npm test again.`,
  );
}

function onPath(command: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

function run(
  command: string,
  args: string[],
  env: Record<string, string> = {},
  errors: "inherit" | "ignore" = "inherit",
): boolean {
  const result = spawnSync(command, args, { stdio: ["ignore", "ignore", errors], env: { ...process.env, ...env } });
  return result.status === 0;
}

// `npm test` runs this file first: a machine without a browser gets one, or one sentence of what to do.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const found = ensureChromium(console.log);
    console.log(`Chromium: ${found.executablePath ?? chromium.executablePath()} (${found.how})`);
  } catch (error) {
    console.error(`error: ${(error as Error).message}`);
    process.exit(1);
  }
}
