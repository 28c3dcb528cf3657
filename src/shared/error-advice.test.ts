import { describe, expect, it } from "vitest";
import { ApiError, type ApiErrorKind } from "../api/api-error.ts";
import { adviseOnError } from "./error-advice.ts";

const advise = (kind: ApiErrorKind, details = {}) =>
  adviseOnError(new ApiError(kind, "detail from the service", details), "New Jersey");

describe("what a person is told about a failed request", () => {
  it("offers a retry only where trying again can help", () => {
    const retry = (
      ["bad-request", "unavailable", "unauthorized", "rate-limited", "server", "network", "invalid-response"] as const
    ).filter((kind) => advise(kind).retry);
    expect(retry).toEqual(["unauthorized", "rate-limited", "server", "network", "invalid-response"]);
  });

  it("names the state that is not covered and says what a clerk can do, without talk of API keys", () => {
    expect(advise("unavailable")).toEqual(
      expect.objectContaining({
        title: "New Jersey is not covered",
        body: "License Lookup has no New Jersey records for your team. Pick another state, or ask whoever runs License Lookup for your team to add New Jersey.",
      }),
    );
    expect(advise("unavailable").body).not.toMatch(/API key/i);
  });

  it("points at the key for a 401, and says how long to wait on a 429", () => {
    expect(advise("unauthorized").body).toContain("LLS_API_KEY");
    expect(advise("rate-limited", { retryAfter: 12 }).body).toContain("12 seconds");
  });

  it("tries a 429 again by itself after the service's Retry-After, or after 10 seconds without one", () => {
    expect(advise("rate-limited", { retryAfter: 1 })).toMatchObject({
      retryIn: 1,
      body: "Wait 1 second: the page tries again by itself then.",
    });
    expect(advise("rate-limited")).toMatchObject({ retryIn: 10, body: expect.stringContaining("10 seconds") });
    expect(advise("server").retryIn).toBeUndefined();
  });

  it("gives the request id for faults on the service's side", () => {
    expect(advise("server", { requestId: "req-9" })).toMatchObject({
      report: true,
      body: expect.stringContaining("req-9"),
    });
  });
});
