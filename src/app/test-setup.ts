import { cleanup, configure } from "@testing-library/react";
import { afterEach, vi } from "vitest";

// `findBy…` waits up to 1 s by default: a busy machine running four test files at once on two cores
// takes longer to render than that. A limit catches what never appears; speed is the benchmarks' business.
configure({ asyncUtilTimeout: 5_000 });

// Vitest runs without globals, so Testing Library cannot register this itself.
afterEach(cleanup);

// Test files share a worker's window (vitest.config.ts: isolate false): what one file leaves behind
// must not reach the next.
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  // Files that run under `@vitest-environment node` have no storage.
  globalThis.localStorage?.clear();
  globalThis.sessionStorage?.clear();
});
