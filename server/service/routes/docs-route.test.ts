import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../openapi/openapi-document.ts";
import { licenseFixture } from "../../testing/license-fixture.ts";
import { tempService } from "../../testing/temp-service.ts";

let service: Awaited<ReturnType<typeof tempService>>;
let headers: Record<string, string>;

beforeAll(async () => {
  // With the rate limit on: it counts per key, and a public route has none to count by.
  service = await tempService(
    { ny: [licenseFixture({ license: "0012345" })] },
    { rateLimit: { perSecond: 1, burst: 2 } },
  );
  headers = (await service.keyFor(["ny"])).headers;
});
afterAll(() => service.close());

const BAD_KEY = { authorization: "Bearer not-a-key" };

describe("GET /v2/openapi.json", () => {
  it("serves the document without a key, as often as asked", async () => {
    for (let i = 0; i < 4; i++) {
      const response = await service.app.inject({ url: "/v2/openapi.json" });
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toMatch(/^application\/json/);
      expect(response.json()).toEqual(buildOpenApiDocument());
    }
  });

  it("serves it to a request with a key, live or not", async () => {
    for (const sent of [headers, BAD_KEY]) {
      expect((await service.app.inject({ url: "/v2/openapi.json", headers: sent })).statusCode).toBe(200);
    }
  });
});

describe("GET /v2/docs", () => {
  it("serves a page without a key whose every script and style comes from this service", async () => {
    const page = await service.app.inject({ url: "/v2/docs" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.headers["content-security-policy"]).toMatch(/default-src 'none'/);
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(3);
    for (const asset of assets) {
      expect(asset).toMatch(/^\/v2\/docs\//);
      const response = await service.app.inject({ url: asset });
      expect(response.statusCode, asset).toBe(200);
    }
  });

  it("answers a docs file that does not exist with a 404 problem", async () => {
    const response = await service.app.inject({ url: "/v2/docs/static/nothing.js" });
    expect(response.statusCode).toBe(404);
    expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
  });
});

describe("everything else still needs the key", () => {
  it.each([
    ["GET", "/v2/search?state=ny&name=tavern"],
    ["GET", "/v2/license/ny/0012345"],
    ["GET", "/v2/states"],
    ["GET", "/v2/nowhere"],
    ["GET", "/v2/openapi.json/../states"],
    ["POST", "/v2/openapi.json"],
  ] as const)("%s %s without a key is 401", async (method, url) => {
    for (const sent of [{}, BAD_KEY]) {
      const response = await service.app.inject({ method, url, headers: sent });
      expect(response.statusCode).toBe(401);
      expect(response.headers["www-authenticate"]).toMatch(/^Bearer/);
    }
  });

  it("answers other methods on the document with 405 once the key is good", async () => {
    const response = await service.app.inject({ method: "DELETE", url: "/v2/openapi.json", headers });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe("GET, HEAD");
  });
});
