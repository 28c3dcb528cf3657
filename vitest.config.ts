import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Each project names what it runs: e2e/ is Playwright's, and bench/ prints figures, never a test.
    projects: [
      {
        test: {
          name: "app",
          include: ["src/**/*.test.{ts,tsx}"],
          environment: "jsdom",
          setupFiles: ["src/app/test-setup.ts"],
        },
      },
      {
        // The repository's own rules: the lint configuration.
        test: { name: "repo", include: ["*.test.ts"], environment: "node" },
      },
      {
        test: {
          name: "server",
          include: ["server/**/*.test.ts"],
          environment: "node",
        },
      },
    ],
  },
});
