import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildWebApp } from "./web-app.ts";

const KEY = "test-key-123";
let dist: string;
let upstream: Server;
let upstreamUrl: string;
const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
const apps: Awaited<ReturnType<typeof buildWebApp>>[] = [];

async function webApp(apiBaseUrl = upstreamUrl) {
  const app = await buildWebApp({ distDir: dist, apiBaseUrl, apiKey: KEY });
  apps.push(app);
  return app;
}

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), "web-app-"));
  mkdirSync(join(dist, "assets"));
  writeFileSync(join(dist, "index.html"), "<!doctype html><div id=root></div>");
  writeFileSync(join(dist, "assets", "index-abc.js"), "console.log(1)");
  upstream = createServer((req, res) => {
    seen.push({ url: req.url!, headers: req.headers });
    if (req.url!.startsWith("/v2/search")) {
      res.writeHead(429, { "content-type": "application/problem+json", "retry-after": "7", "x-internal": "no" });
      res.end(JSON.stringify({ type: "about:blank", title: "Too Many Requests", status: 429, detail: "slow down" }));
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ data: null }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  upstream.close();
  rmSync(dist, { recursive: true, force: true });
});

describe("the production web server", () => {
  it("forwards /v2 with the key added, the path kept byte for byte", async () => {
    const app = await webApp();
    const res = await app.inject({ url: "/v2/license/ny/00%2F12%20A%2314" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: null });
    const last = seen.at(-1)!;
    expect(last.url).toBe("/v2/license/ny/00%2F12%20A%2314");
    expect(last.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("passes the service's errors through with what a client needs to act on them", async () => {
    const app = await webApp();
    const res = await app.inject({ url: "/v2/search?state=ny&name=a" });
    expect(res.statusCode).toBe(429);
    expect(res.headers["retry-after"]).toBe("7");
    expect(res.headers["content-type"]).toBe("application/problem+json");
    expect(res.headers["x-internal"]).toBeUndefined();
    expect(res.json()).toMatchObject({ status: 429, detail: "slow down" });
  });

  it("answers 502 with a problem when the service is down", async () => {
    const app = await webApp("http://127.0.0.1:9");
    const res = await app.inject({ url: "/v2/states" });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ status: 502, title: "Bad Gateway" });
  });

  it("serves built files, and index.html for any page of the app", async () => {
    const app = await webApp();
    const asset = await app.inject({ url: "/assets/index-abc.js" });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers["cache-control"]).toContain("immutable");

    for (const url of ["/", "/?state=ny&by=name&q=tavern", "/license/ny/0012345"]) {
      const page = await app.inject({ url, headers: { accept: "text/html" } });
      expect(page.statusCode, url).toBe(200);
      expect(page.body).toContain("<div id=root>");
    }

    const missing = await app.inject({ url: "/assets/gone.js", headers: { accept: "*/*" } });
    expect(missing.statusCode).toBe(404);
  });
});
