import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { licenseFixture } from "../testing/license-fixture.ts";
import { tempService } from "../testing/temp-service.ts";

let service: Awaited<ReturnType<typeof tempService>>;

beforeAll(async () => {
  service = await tempService({ ny: [licenseFixture({ license: "1268007" })] });
});
afterAll(() => service.close());

async function expectUnauthorized(authorization: string | undefined, url = "/v2/search?state=ny&name=test") {
  const response = await service.app.inject({ url, headers: authorization ? { authorization } : {} });
  expect(response.statusCode).toBe(401);
  expect(response.headers["www-authenticate"]).toMatch(/^Bearer/);
  expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
  expect(response.json()).toMatchObject({ status: 401, title: expect.any(String), detail: expect.any(String) });
}

describe("authentication: every request needs a live key, checked before anything else", () => {
  it("refuses a request without a key", () => expectUnauthorized(undefined));
  it("refuses a malformed Authorization header", () => expectUnauthorized("Basic dXNlcjpwYXNz"));
  it("refuses a well-formed but unknown key", () => expectUnauthorized(`Bearer ll_${"A".repeat(43)}`));

  it("refuses a revoked key on its next request, without a restart", async () => {
    const { id, headers } = await service.keyFor(["ny"]);
    expect((await service.app.inject({ url: "/v2/license/ny/1268007", headers })).statusCode).toBe(200);
    await service.revoke(id);
    await expectUnauthorized(headers.authorization, "/v2/license/ny/1268007");
  });

  it("checks the key before anything else: bad parameters, unknown states, paths and methods", async () => {
    await expectUnauthorized(undefined, "/v2/search?state=ny&name=a&address=b");
    await expectUnauthorized(undefined, "/v2/search?state=zz&name=a");
    await expectUnauthorized(undefined, "/v2/license/zz/1");
    await expectUnauthorized(undefined, "/v2/nowhere");
    const post = await service.app.inject({ method: "POST", url: "/v2/search" });
    expect(post.statusCode).toBe(401);
  });
});
