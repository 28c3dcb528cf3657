import { afterEach, describe, expect, it, vi } from "vitest";
import { LicenseResponseSchema } from "../contract/envelopes.ts";
import { problemType } from "../../server/http/problem.ts";
import { ApiError, isMissingExtension, parseRetryAfter, STATE_UNAVAILABLE_PROBLEM } from "./api-error.ts";
import { fetchJson, sendJson } from "./fetch-json.ts";
import { WatchAddResponseSchema } from "../contract/watchlist.ts";

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => new Response(text, { status, headers })),
  );
}

function problem(status: number, detail: string) {
  return { type: "about:blank", title: "x", status, detail, request_id: "req-42" };
}

async function failure(): Promise<ApiError> {
  const error = await fetchJson("/v2/license/ny/1", LicenseResponseSchema).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

afterEach(() => vi.unstubAllGlobals());

describe("fetchJson", () => {
  it("returns the parsed body, null data included", async () => {
    answer(200, { data: null });
    await expect(fetchJson("/v2/license/ny/1", LicenseResponseSchema)).resolves.toEqual({ data: null });
  });

  it.each([
    [400, "bad-request"],
    [401, "unauthorized"],
    [404, "unavailable"],
    [500, "server"],
    [503, "server"],
  ] as const)("maps HTTP %i to %s, keeping the problem's detail and request id", async (status, kind) => {
    answer(status, problem(status, "what happened"), { "content-type": "application/problem+json" });
    const error = await failure();
    expect(error.kind).toBe(kind);
    expect(error.message).toBe("what happened");
    expect(error.details).toMatchObject({ status, requestId: "req-42" });
  });

  it("reads Retry-After on 429", async () => {
    answer(429, problem(429, "slow down"), { "Retry-After": "30" });
    const error = await failure();
    expect(error.kind).toBe("rate-limited");
    expect(error.details.retryAfter).toBe(30);
  });

  it("still classifies an error whose body is not a problem", async () => {
    answer(502, "<html>Bad Gateway</html>", { "content-type": "text/html" });
    const error = await failure();
    expect(error.kind).toBe("server");
    expect(error.message).toBe("HTTP 502");
  });

  it("calls a failed connection a network error", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Promise.reject(new TypeError("Failed to fetch"))),
    );
    expect((await failure()).kind).toBe("network");
  });

  it("rejects a body that is not JSON, or not the contract's shape", async () => {
    answer(200, "not json");
    expect((await failure()).kind).toBe("invalid-response");
    answer(200, { data: { object: "license", license: "1" } });
    expect((await failure()).kind).toBe("invalid-response");
  });

  it("lets an abort through as an abort, not as a failure to show", async () => {
    const controller = new AbortController();
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Promise.reject(new DOMException("aborted", "AbortError"))),
    );
    controller.abort();
    const error = await fetchJson("/v2/states", LicenseResponseSchema, { signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as Error).name).toBe("AbortError");
  });
});

describe("sendJson", () => {
  const sent = () => vi.mocked(fetch).mock.calls.map(([path, init]) => ({ path, ...init }));

  it("sends a body as JSON, says so, and parses the answer with the contract", async () => {
    const data = { rows: [], added: 0, watched: 3 };
    answer(200, { data });
    const rows = [{ row: 1, state: "NY", license: "0012345" }];
    await expect(sendJson("POST", "/api/watchlist", { rows }, WatchAddResponseSchema)).resolves.toEqual({ data });
    expect(sent()).toEqual([
      {
        path: "/api/watchlist",
        method: "POST",
        headers: { Accept: "application/json", "Content-Type": "application/json" },
        body: JSON.stringify({ rows }),
      },
    ]);
  });

  it("sends no body and no Content-Type when there is nothing to send, and reads nothing of a 204", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response(null, { status: 204 })),
    );
    await expect(sendJson("DELETE", "/api/watchlist/ny/1", undefined, null)).resolves.toBeUndefined();
    expect(sent()).toEqual([
      { path: "/api/watchlist/ny/1", method: "DELETE", headers: { Accept: "application/json" }, body: undefined },
    ]);
  });

  it("fails as fetchJson does, with the problem's detail", async () => {
    answer(422, problem(422, "No New York license 99999 in our data."), {
      "content-type": "application/problem+json",
    });
    const error = await sendJson("PUT", "/api/watchlist/ny/99999", undefined, LicenseResponseSchema).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ kind: "bad-request", message: "No New York license 99999 in our data." });
  });
});

describe("parseRetryAfter", () => {
  it("reads seconds and HTTP dates", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:10 GMT", now)).toBe(10);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe("isMissingExtension", () => {
  it("takes a 404 for a route the service lacks, but not our service's state outside the key", async () => {
    answer(404, {
      type: "about:blank",
      title: "Not Found",
      status: 404,
      detail: "Route GET:/v2/history/dc/1 not found",
    });
    expect(isMissingExtension(await failure())).toBe(true);
    answer(404, "Not Found");
    expect(isMissingExtension(await failure())).toBe(true);
    answer(404, { ...problem(404, "No license data for this state"), type: STATE_UNAVAILABLE_PROBLEM });
    expect(isMissingExtension(await failure())).toBe(false);
    answer(500, problem(500, "boom"));
    expect(isMissingExtension(await failure())).toBe(false);
  });

  it("knows the problem type our service sends for a state outside the key", () => {
    expect(STATE_UNAVAILABLE_PROBLEM).toBe(problemType("state-unavailable"));
  });
});
