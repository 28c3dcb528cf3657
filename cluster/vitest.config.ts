import { defineConfig } from "vitest/config";

// `npm run test:cluster`: one cluster of real processes, its tests in order, one file at a time.
export default defineConfig({
  test: {
    include: ["cluster/**/*.test.ts"],
    environment: "node",
    fileParallelism: false,
    sequence: { concurrent: false },
    testTimeout: 60_000,
    hookTimeout: 240_000,
  },
});
