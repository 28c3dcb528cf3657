import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { licenseFixture } from "./testing/license-fixture.ts";
import { tempService } from "./testing/temp-service.ts";

const lines: string[] = [];
const stream = new Writable({
  write(chunk, _encoding, done) {
    lines.push(...String(chunk).split("\n").filter(Boolean));
    done();
  },
});
let service: Awaited<ReturnType<typeof tempService>>;

beforeAll(async () => {
  service = await tempService({ ny: [licenseFixture({ license: "1268007" })] }, { logger: { level: "info", stream } });
});
afterAll(() => service.close());

describe("request log", () => {
  it("writes one JSON line per request with id, method, path, status and milliseconds, and never the key", async () => {
    const { key, headers } = service.keyFor(["ny"]);
    const requests = [
      { url: "/v2/license/ny/1268007", headers },
      { url: "/v2/search?state=ny&name=rabbit", headers },
      { url: "/v2/search?state=ny", headers },
      { url: "/v2/states", headers: { authorization: `Bearer ${key}x` } },
      { url: "/v2/states", headers: { authorization: `Basic ${Buffer.from(`user:${key}`).toString("base64")}` } },
    ];
    const responses: Awaited<ReturnType<typeof service.app.inject>>[] = [];
    for (const request of requests) responses.push(await service.app.inject(request));

    expect(lines).toHaveLength(requests.length);
    const entries = lines.map((line) => JSON.parse(line));
    entries.forEach((entry, i) => {
      expect(entry).toMatchObject({
        reqId: responses[i]!.headers["x-request-id"],
        method: "GET",
        path: requests[i]!.url.split("?")[0],
        status: responses[i]!.statusCode,
        ms: expect.any(Number),
      });
    });
    const log = lines.join("\n");
    expect(log).not.toContain(key);
    expect(log).not.toContain(key.slice(3, 20));
    expect(log.toLowerCase()).not.toContain("authorization");
    expect(log).not.toContain("rabbit");
  });
});
