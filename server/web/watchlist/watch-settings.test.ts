import { describe, expect, it } from "vitest";
import { DEFAULT_LEASE_SECONDS } from "../../jobs/job-queue.ts";
import { watchSettingsFromEnv } from "./watch-settings.ts";

const context = { service: { baseUrl: "http://service.test", apiKey: "k" }, appUrl: "http://app.test" };

describe("the watchlist's settings", () => {
  it("holds a node's jobs for WATCH_JOB_LEASE_SECONDS, a minute unless told", () => {
    expect(watchSettingsFromEnv({}, context).jobLeaseSeconds).toBe(DEFAULT_LEASE_SECONDS);
    expect(DEFAULT_LEASE_SECONDS).toBe(60);
    expect(watchSettingsFromEnv({ WATCH_JOB_LEASE_SECONDS: "5" }, context).jobLeaseSeconds).toBe(5);
  });

  it("names the variable to fix when the lease is not a whole number of seconds it can hold", () => {
    for (const value of ["1", "2.5", "a minute", "7200"]) {
      expect(() => watchSettingsFromEnv({ WATCH_JOB_LEASE_SECONDS: value }, context)).toThrow(
        `WATCH_JOB_LEASE_SECONDS must be a whole number of seconds from 2 to 3600, not "${value}"`,
      );
    }
  });
});
