import { defineConfig } from "@playwright/test";
import { chromiumLaunchOptions } from "./e2e/chromium.ts";

const appPort = Number(process.env.E2E_APP_PORT ?? 14173);

export default defineConfig({
  testDir: "e2e",
  // Seeds a database with the project's own commands, builds the app, starts the service and `npm run serve`.
  globalSetup: "./e2e/global-setup.ts",
  fullyParallel: true,
  // One more than the cores: a spec spends much of its time waiting on the servers and the browser's frames
  // (on 2 cores, 2 workers kept them 82% busy and took 3.9 min; 3 workers, 88% and 3.5 min).
  workers: 3,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: `http://127.0.0.1:${appPort}`,
    // Signed in as a member on both app servers (global-setup.ts); a spec about signing in starts without it.
    storageState: "e2e/.auth/clerk.json",
    browserName: "chromium",
    trace: "retain-on-failure",
    launchOptions: chromiumLaunchOptions(),
  },
});
