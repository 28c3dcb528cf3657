import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProblemSchema } from "../../src/contract/problem.ts";
import { refuseOtherSites } from "./same-origin.ts";

const app = Fastify();
const REFUSED = "Changes come only from the app itself.";

beforeAll(async () => {
  app.addHook("onRequest", refuseOtherSites(REFUSED));
  app.route({ method: ["GET", "POST", "PUT", "DELETE"], url: "/thing", handler: () => ({ data: "done" }) });
  await app.ready();
});
afterAll(() => app.close());

const send = (method: "GET" | "POST" | "PUT" | "DELETE", headers: Record<string, string>) =>
  app.inject({ method, url: "/thing", headers: { host: "app.test", ...headers } });

describe("a change from another site's page", () => {
  it.each([
    ["its browser names it cross-site", { "sec-fetch-site": "cross-site" }],
    ["its browser names it same-site, another host of ours", { "sec-fetch-site": "same-site" }],
    ["an older browser sends only its Origin", { origin: "https://evil.example" }],
    ["its Origin is another port of our host", { origin: "http://app.test:8080" }],
    ["its Origin is opaque (a sandboxed frame, a file)", { origin: "null" }],
  ])("is refused 403 as problem+json when %s", async (_, headers) => {
    for (const method of ["POST", "PUT", "DELETE"] as const) {
      const response = await send(method, headers);
      expect(response.statusCode, method).toBe(403);
      expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(ProblemSchema.parse(response.json()).detail).toBe(REFUSED);
    }
  });

  it("is only read, never refused, when it reads", async () => {
    expect((await send("GET", { "sec-fetch-site": "cross-site", origin: "https://evil.example" })).statusCode).toBe(
      200,
    );
  });
});

describe("a change the app's own pages, or no browser at all, make", () => {
  it.each([
    ["its browser names it same-origin", { "sec-fetch-site": "same-origin" }],
    ["a person typed or bookmarked it", { "sec-fetch-site": "none" }],
    ["an older browser sends our own Origin", { origin: "http://app.test" }],
    ["no browser sent it (curl, a script)", {}],
  ])("is let through when %s", async (_, headers) => {
    expect((await send("POST", headers)).statusCode).toBe(200);
  });

  it("trusts the browser's Sec-Fetch-Site over an Origin a proxy's Host rewrite no longer matches", async () => {
    expect((await send("POST", { "sec-fetch-site": "same-origin", origin: "https://app.example" })).statusCode).toBe(
      200,
    );
  });
});
