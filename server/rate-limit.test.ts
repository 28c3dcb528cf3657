import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProblemSchema } from "../src/contract/problem.ts";
import { licenseFixture } from "./testing/license-fixture.ts";
import { tempService } from "./testing/temp-service.ts";

let service: Awaited<ReturnType<typeof tempService>>;

beforeAll(async () => {
  service = await tempService(
    { ny: [licenseFixture({ license: "1268007" })] },
    { rateLimit: { perSecond: 5, burst: 10 } },
  );
});
afterAll(() => service.close());

const get = (headers: Record<string, string>) => service.app.inject({ url: "/v2/license/ny/1268007", headers });

describe("rate limit per key", () => {
  it("lets a key burst, then answers 429 with Retry-After and rate-limit headers", async () => {
    const { headers } = await service.keyFor(["ny"]);
    const first = await get(headers);
    expect(first.statusCode).toBe(200);
    // Only a 429 says where the limit stands: three headers on every answer cost more than they told.
    expect(first.headers["x-ratelimit-limit"]).toBeUndefined();
    for (let i = 0; i < 9; i++) expect((await get(headers)).statusCode).toBe(200);

    const limited = await get(headers);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(limited.headers["x-ratelimit-limit"]).toBe("10");
    expect(limited.headers["x-ratelimit-remaining"]).toBe("0");
    const body = ProblemSchema.parse(limited.json());
    expect(body).toMatchObject({ status: 429, title: "Too many requests" });
    expect(body.detail).toMatch(/try again in/);
  });

  it("counts each key on its own", async () => {
    const busy = (await service.keyFor(["ny"])).headers;
    for (let i = 0; i < 11; i++) await get(busy);
    expect((await get(busy)).statusCode).toBe(429);
    expect((await get((await service.keyFor(["ny"])).headers)).statusCode).toBe(200);
  });

  it("does not count requests without a valid key against anyone", async () => {
    for (let i = 0; i < 20; i++) expect((await get({ authorization: "Bearer nope" })).statusCode).toBe(401);
  });
});
