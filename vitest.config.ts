import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // A worker keeps its modules (and the app's window) from one test file to the next: importing them
    // again for each of 67 files cost more than running the tests. Files clean up after themselves
    // (src/app/test-setup.ts). Twice the cores: many tests wait on a child process or a timer.
    isolate: false,
    maxWorkers: 4,
    // A limit catches a test that hangs; speed is the benchmarks' business. Four workers on two busy
    // cores take several times a test's quiet duration.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Each project names what it runs, and takes the options above (extends): e2e/ is Playwright's, and bench/ prints figures, never a test.
    projects: [
      {
        extends: true,
        test: {
          name: "app",
          include: ["src/**/*.test.{ts,tsx}"],
          environment: "jsdom",
          setupFiles: ["src/app/test-setup.ts"],
        },
      },
      {
        extends: true,
        // The repository's own rules: the lint configuration.
        test: { name: "repo", include: ["*.test.ts"], environment: "node" },
      },
      {
        extends: true,
        test: {
          name: "server",
          include: ["server/**/*.test.ts"],
          environment: "node",
          // The stores run on SQLite and on PostgreSQL alike: one cluster for the run, a database per test. The
          // programs a test runs as a person would are bundled once for the run (built-cli.ts).
          globalSetup: ["server/testing/postgres-global-setup.ts", "server/testing/built-cli.ts"],
        },
      },
    ],
  },
});
