import { defineConfig } from "@playwright/test";
import { chromiumLaunchOptions } from "./e2e/chromium.ts";

const appPort = Number(process.env.E2E_APP_PORT ?? 14173);

export default defineConfig({
  testDir: "e2e",
  // Seeds a database with the project's own commands, builds the app, starts the service and `npm run serve`.
  globalSetup: "./e2e/global-setup.ts",
  fullyParallel: true,
  workers: 2,
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
