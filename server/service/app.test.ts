import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProblemSchema } from "../../src/contract/problem.ts";
import { buildApp } from "./app.ts";
import { licenseFixture } from "../testing/license-fixture.ts";
import { tempService } from "../testing/temp-service.ts";

let service: Awaited<ReturnType<typeof tempService>>;
let headers: Record<string, string>;

beforeAll(async () => {
  service = await tempService({ ny: [licenseFixture({ license: "1268007" })] });
  headers = (await service.keyFor(["ny"])).headers;
});
afterAll(() => service.close());

describe("HTTP behaviour: methods, unknown paths, request ids", () => {
  it("puts a request id on every response, success or error, fresh each time", async () => {
    const urls = ["/v2/license/ny/1268007", "/v2/search?state=ny", "/v2/nowhere", "/v2/states"];
    const ids = new Set<string>();
    for (const url of urls) {
      const response = await service.app.inject({ url, headers });
      expect(response.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
      ids.add(String(response.headers["x-request-id"]));
    }
    const unauthenticated = await service.app.inject({ url: "/v2/states" });
    expect(unauthenticated.headers["x-request-id"]).toBeTruthy();
    expect(ids.size).toBe(urls.length);
  });

  it("does not take a request id from the client", async () => {
    const response = await service.app.inject({ url: "/v2/states", headers: { ...headers, "x-request-id": "mine" } });
    expect(response.headers["x-request-id"]).not.toBe("mine");
  });

  it("answers HEAD like GET, without a body", async () => {
    const response = await service.app.inject({ method: "HEAD", url: "/v2/license/ny/1268007", headers });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe("");
  });

  it.each(["POST", "PUT", "PATCH", "DELETE"] as const)("answers %s with 405 and Allow", async (method) => {
    for (const url of ["/v2/search?state=ny&name=x", "/v2/license/ny/1268007", "/v2/states"]) {
      const response = await service.app.inject({ method, url, headers });
      expect(response.statusCode).toBe(405);
      expect(response.headers.allow).toBe("GET, HEAD");
      expect(ProblemSchema.parse(response.json()).status).toBe(405);
    }
  });

  it("answers an unknown path with a 404 problem", async () => {
    const response = await service.app.inject({ url: "/v2/permits/ny", headers });
    expect(response.statusCode).toBe(404);
    expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(ProblemSchema.parse(response.json()).detail).toMatch(/\/v2\/permits\/ny/);
  });

  it("answers a broken URL with a 400 problem", async () => {
    const response = await service.app.inject({ url: "/v2/license/ny/%E0%A4%A", headers });
    expect(response.statusCode).toBe(400);
    expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(response.headers["x-request-id"]).toBeTruthy();
  });

  it("hides the cause of a server error from the client and names the request id", async () => {
    const failing = buildApp({
      keys: service.keys,
      licenses: {
        ...service.licenses,
        get: () => {
          throw new Error("SQLITE_CORRUPT: secret detail");
        },
      },
    });
    const response = await failing.inject({ url: "/v2/license/ny/1268007", headers });
    expect(response.statusCode).toBe(500);
    const body = ProblemSchema.parse(response.json());
    expect(response.body).not.toMatch(/SQLITE|secret/);
    expect(body.detail).toContain(String(response.headers["x-request-id"]));
    await failing.close();
  });
});

describe("/healthz and /readyz, for a load balancer", () => {
  it("answers /healthz without a key while the process runs", async () => {
    const response = await service.app.inject({ url: "/healthz" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok" });
  });

  it("answers /readyz 200 when nothing keeps the node from serving, 503 naming each reason when something does", async () => {
    expect((await service.app.inject({ url: "/readyz" })).statusCode).toBe(200);
    let reasons = ["the license data is not loaded yet", "PostgreSQL (postgres://db/keys) is unreachable"];
    const waiting = buildApp({ keys: service.keys, licenses: service.licenses, readiness: async () => reasons });
    const response = await waiting.inject({ url: "/readyz" });
    expect(response.statusCode).toBe(503);
    expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
    const { detail } = ProblemSchema.parse(response.json());
    expect(detail).toContain("the license data is not loaded yet");
    expect(detail).toContain("PostgreSQL (postgres://db/keys) is unreachable");
    // Ready once the reasons are gone, without a restart.
    reasons = [];
    expect((await waiting.inject({ url: "/readyz" })).statusCode).toBe(200);
    await waiting.close();
  });

  it("answers /readyz 503 when a readiness check hangs, rather than hanging the balancer's probe", async () => {
    const hung = buildApp({
      keys: service.keys,
      licenses: service.licenses,
      readiness: () => new Promise(() => {}),
    });
    const response = await hung.inject({ url: "/readyz" });
    expect(response.statusCode).toBe(503);
    expect(ProblemSchema.parse(response.json()).detail).toMatch(/took more than 2 s/);
    await hung.close();
  });

  it("never counts a probe against a key's rate limit", async () => {
    const limited = buildApp({
      keys: service.keys,
      licenses: service.licenses,
      rateLimit: { perSecond: 1, burst: 2 },
    });
    for (let i = 0; i < 5; i++) {
      expect((await limited.inject({ url: "/healthz", headers })).statusCode).toBe(200);
      expect((await limited.inject({ url: "/readyz", headers })).statusCode).toBe(200);
    }
    expect((await limited.inject({ url: "/v2/license/ny/1268007", headers })).statusCode).toBe(200);
    await limited.close();
  });
});
