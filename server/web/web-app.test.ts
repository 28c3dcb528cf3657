import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProblemSchema } from "../../src/contract/problem.ts";
import { createAccounts } from "./accounts/accounts.ts";
import { openAppState } from "./app-db.ts";
import type { WatchlistService } from "./watchlist/watchlist.ts";
import { buildWebApp, type WebAppOptions } from "./web-app.ts";

const KEY = "test-key-123";
const PAGE = "<!doctype html><div id=root></div>";
const SCRIPT = `console.log(${JSON.stringify("a built chunk ".repeat(50))})`;
/** Vite's manifest of a build: the entry, the license page's chunk with a chunk it shares, New York's table. */
const MANIFEST = {
  "index.html": { file: "assets/index-abc.js", isEntry: true, imports: ["_runtime.js"] },
  "_runtime.js": { file: "assets/runtime-r1.js" },
  "_shared.js": { file: "assets/shared-s1.js", imports: ["_runtime.js", "index.html"] },
  "src/license/license-route.tsx": { file: "assets/license-route-l1.js", imports: ["_shared.js", "index.html"] },
  "src/contract/decoding/ny.json": { file: "assets/ny-n1.js" },
  "src/search/search-page.tsx": { file: "assets/search-page-p1.js", imports: ["_shared.js"] },
};
const TIMEOUT_MS = 300;
let dist: string;
let upstream: Server;
let upstreamUrl: string;
let downUrl: string;
const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
const apps: Awaited<ReturnType<typeof buildWebApp>>[] = [];

async function webApp(options: Partial<WebAppOptions> = {}) {
  const app = await buildWebApp({
    distDir: dist,
    apiBaseUrl: upstreamUrl,
    apiKey: KEY,
    upstreamTimeoutMs: TIMEOUT_MS,
    ...options,
  });
  apps.push(app);
  return app;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A GET with the path exactly as given, dot segments and all. */
function rawGet(base: string, path: string): Promise<{ status: number; type: string | undefined }> {
  return new Promise((resolve, reject) => {
    request(`${base}/`, { path }, (res) => {
      res.resume();
      resolve({ status: res.statusCode!, type: res.headers["content-type"] });
    })
      .on("error", reject)
      .end();
  });
}

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), "web-app-"));
  mkdirSync(join(dist, "assets"));
  writeFileSync(join(dist, "index.html"), PAGE);
  writeFileSync(join(dist, "assets", "index-abc.js"), SCRIPT);
  writeFileSync(join(dist, "favicon.png"), "not really a png");
  // As the build leaves them: each page and script beside itself compressed, and the manifest of its chunks.
  for (const file of ["index.html", "assets/index-abc.js"]) {
    const raw = readFileSync(join(dist, file));
    writeFileSync(join(dist, `${file}.br`), brotliCompressSync(raw));
    writeFileSync(join(dist, `${file}.gz`), gzipSync(raw));
  }
  mkdirSync(join(dist, ".vite"));
  writeFileSync(join(dist, ".vite", "manifest.json"), JSON.stringify(MANIFEST));
  upstream = createServer((req, res) => {
    seen.push({ url: req.url!, headers: req.headers });
    const path = req.url!.split("?")[0];
    if (path === "/v2/search" && new URL(req.url!, "http://upstream").searchParams.get("name") === "a") {
      res.writeHead(429, { "content-type": "application/problem+json", "retry-after": "7", "x-internal": "no" });
      res.end(JSON.stringify({ type: "about:blank", title: "Too Many Requests", status: 429, detail: "slow down" }));
    } else if (path === "/v2/slow") {
      // Never answers: only the web app's own time limit ends the wait.
    } else if (path === "/v2/stalled-body") {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"data":');
    } else if (path === "/v2/license/ny/unavailable") {
      res.writeHead(503, { "content-type": "application/problem+json", "retry-after": "1" });
      res.end(JSON.stringify({ type: "about:blank", title: "Service Unavailable", status: 503 }));
    } else if (path === "/v2/license/ny/no-store") {
      res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
      res.end(JSON.stringify({ data: null }));
    } else if (path === "/v2/moved") {
      res.writeHead(302, { location: "/elsewhere" });
      res.end();
    } else if (path === "/v2/echo") {
      // A misconfigured upstream that reflects what it was sent.
      res.writeHead(401, {
        "content-type": "application/json",
        "www-authenticate": `Bearer error="${req.headers.authorization}"`,
      });
      res.end(JSON.stringify(req.headers));
    } else {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ data: null }));
    }
  });
  upstreamUrl = await listen(upstream);
  // A port that was just listened on and let go: nothing answers there.
  const gone = createServer();
  downUrl = await listen(gone);
  await new Promise((resolve) => gone.close(resolve));
});

afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  upstream.closeAllConnections();
  upstream.close();
  rmSync(dist, { recursive: true, force: true });
});

describe("forwarding /v2", () => {
  it("forwards with the key added, the path kept byte for byte", async () => {
    const app = await webApp();
    const res = await app.inject({ url: "/v2/license/ny/00%2F12%20A%2314" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: null });
    const last = seen.at(-1)!;
    expect(last.url).toBe("/v2/license/ny/00%2F12%20A%2314");
    expect(last.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("forwards the query string byte for byte, a repeated parameter and encoded numbers included", async () => {
    const app = await webApp();
    const url = "/v2/licenses/ny?license=0012345&license=AB%2F12%20%233&license=AB%2F12+%233&license=0012345";
    expect((await app.inject({ url })).statusCode).toBe(200);
    expect(seen.at(-1)!.url).toBe(url);
  });

  it("sends the service only the server's key: never the browser's own credentials", async () => {
    const app = await webApp();
    await app.inject({
      url: "/v2/states",
      headers: { authorization: "Bearer the-browsers-token", cookie: "session=abc", "x-api-key": "other" },
    });
    const { headers } = seen.at(-1)!;
    expect(headers.authorization).toBe(`Bearer ${KEY}`);
    expect(headers.cookie).toBeUndefined();
    expect(headers["x-api-key"]).toBeUndefined();
  });

  it("never sends the key outside the service's /v2, whatever dot segments the path holds", async () => {
    const app = await webApp({ apiBaseUrl: `${upstreamUrl}/base` });
    // Over a real socket: inject would tidy the path before the app saw it.
    const address = await app.listen({ port: 0, host: "127.0.0.1" });
    const before = seen.length;
    for (const path of ["/v2/../admin", "/v2/%2e%2e/%2E%2E/admin", "/v2/license/../../x"]) {
      const { status, type } = await rawGet(address, path);
      expect(status, path).toBe(404);
      expect(type, path).toMatch(/^application\/problem\+json/);
    }
    expect(seen.length).toBe(before);
  });

  it("never follows a redirect, so the key goes nowhere but the service's /v2", async () => {
    const app = await webApp();
    const res = await app.inject({ url: "/v2/moved" });
    expect(res.statusCode).toBe(502);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.headers.location).toBeUndefined();
    expect(seen.some((s) => s.url === "/elsewhere")).toBe(false);
  });

  it("passes the service's errors through with what a client needs to act on them", async () => {
    const app = await webApp();
    const res = await app.inject({ url: "/v2/search?state=ny&name=a" });
    expect(res.statusCode).toBe(429);
    expect(res.headers["retry-after"]).toBe("7");
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.headers["x-internal"]).toBeUndefined();
    expect(res.json()).toMatchObject({ status: 429, detail: "slow down" });
  });
});

describe("answers kept for the team's clerks", () => {
  const asked = (url: string) => seen.filter((s) => s.url === url).length;

  it("answers a repeat of a license route from its cache, marked with its age, without asking the service", async () => {
    const app = await webApp();
    const urls = [
      "/v2/search?state=ny&name=dead%20rab",
      "/v2/search-with-provenance?state=ny&name=dead%20rab",
      "/v2/license/ny/0012345",
      "/v2/licenses/ny?license=0012345&license=1268007",
      "/v2/provenance/ny?license=0012345",
      "/v2/provenance/ny/0012345",
    ];
    const before = urls.map(asked);
    for (const url of urls) {
      const first = await app.inject({ url });
      expect(first.headers.age, url).toBeUndefined();
      const again = await app.inject({ url });
      expect(again.statusCode, url).toBe(200);
      expect(again.json(), url).toEqual({ data: null });
      expect(again.headers.age, url).toBe("0");
      expect(again.headers["content-type"], url).toMatch(/^application\/json/);
      expect(again.headers["content-security-policy"], url).toContain("frame-ancestors 'none'");
      expect(JSON.stringify(again.headers)).not.toContain(KEY);
    }
    expect(urls.map(asked)).toEqual(before.map((n) => n + 1));
  });

  it("asks the service again for another query, a 429, a 5xx, a no-store answer and the key's states", async () => {
    const app = await webApp();
    for (const url of [
      "/v2/search?state=ny&name=a",
      "/v2/license/ny/unavailable",
      "/v2/license/ny/no-store",
      "/v2/states",
      "/v2/history/ny/0012345",
    ]) {
      const before = asked(url);
      const [first, second] = [await app.inject({ url }), await app.inject({ url })];
      expect(second.statusCode, url).toBe(first.statusCode);
      expect(second.headers.age, url).toBeUndefined();
      expect(asked(url), url).toBe(before + 2);
    }
    const before = asked("/v2/search?state=ny&name=ab");
    await app.inject({ url: "/v2/license/ny/0012345" });
    await app.inject({ url: "/v2/search?state=ny&name=ab" });
    expect(asked("/v2/search?state=ny&name=ab")).toBe(before + 1);
  });

  it("asks the service again once an answer's time is up, and every time with the cache off", async () => {
    const url = "/v2/license/ny/7654321";
    const short = await webApp({ cacheTtlMs: 100 });
    const before = asked(url);
    await short.inject({ url });
    await short.inject({ url });
    expect(asked(url)).toBe(before + 1);
    await new Promise((resolve) => setTimeout(resolve, 150));
    await short.inject({ url });
    expect(asked(url)).toBe(before + 2);

    const off = await webApp({ cacheTtlMs: 0 });
    await off.inject({ url });
    await off.inject({ url });
    expect(asked(url)).toBe(before + 4);
  });
});

describe("when the service is down or slow", () => {
  it("answers 502 with a problem at once when nothing listens", async () => {
    const app = await webApp({ apiBaseUrl: downUrl, upstreamTimeoutMs: 5_000 });
    const started = performance.now();
    const res = await app.inject({ url: "/v2/states" });
    // Well inside the time limit: a refused connection is not waited out.
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(res.statusCode).toBe(502);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.json()).toEqual({
      type: "about:blank",
      title: "Bad Gateway",
      status: 502,
      detail: "The license service could not be reached.",
      request_id: res.headers["x-request-id"],
    });
  });

  it.each(["/v2/slow", "/v2/stalled-body"])(
    "answers 504 with a problem once the time limit passes (%s)",
    async (url) => {
      const app = await webApp();
      const started = performance.now();
      const res = await app.inject({ url });
      const took = performance.now() - started;
      expect(took).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
      expect(took).toBeLessThan(TIMEOUT_MS + 1_000);
      expect(res.statusCode).toBe(504);
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(res.json()).toMatchObject({
        type: "about:blank",
        title: "Gateway Timeout",
        status: 504,
        detail: "The license service did not answer within 0.3 seconds.",
      });
    },
  );
});

describe("what a browser receives", () => {
  const requests = [
    { url: "/", headers: { accept: "text/html" } },
    { url: "/license/ny/0012345", headers: { accept: "text/html" } },
    { url: "/assets/index-abc.js" },
    { url: "/assets/gone.js" },
    { url: "/v2/license/ny/1" },
    { url: "/v2/search?state=ny&name=a" },
    { url: "/v2/echo", headers: { authorization: "Bearer mine" } },
    { url: "/v2/slow" },
    { url: "/v2/../admin" },
  ];

  it("carries the security headers on every answer, pages and errors included, and no CORS headers", async () => {
    const app = await webApp();
    const down = await webApp({ apiBaseUrl: downUrl });
    for (const res of [
      ...(await Promise.all(requests.map((r) => app.inject(r)))),
      await down.inject({ url: "/v2/states" }),
    ]) {
      const csp = String(res.headers["content-security-policy"]);
      const label = `${res.statusCode} ${res.body.slice(0, 40)}`;
      expect(csp, label).toContain("script-src 'self';");
      expect(csp, label).toContain("frame-ancestors 'none'");
      expect(csp, label).not.toContain("unsafe");
      expect(res.headers["x-content-type-options"], label).toBe("nosniff");
      expect(res.headers["referrer-policy"], label).toBe("no-referrer");
      expect(res.headers["x-frame-options"], label).toBe("DENY");
      expect(res.headers["x-powered-by"], label).toBeUndefined();
      expect(
        Object.keys(res.headers).filter((name) => name.startsWith("access-control-")),
        label,
      ).toEqual([]);
    }
  });

  it("never holds the key, in any header or body, whatever the service answers", async () => {
    const app = await webApp();
    const responses = await Promise.all(requests.map((r) => app.inject(r)));
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 404, 200, 429, 502, 504, 404]);
    for (const res of responses) {
      expect(res.body).not.toContain(KEY);
      expect(JSON.stringify(res.headers)).not.toContain(KEY);
    }
    // The echo really did hold the key: withholding it is what kept it out.
    expect(seen.some((s) => s.url === "/v2/echo" && s.headers.authorization === `Bearer ${KEY}`)).toBe(true);
  });

  it("allows cross-origin reads only from configured origins", async () => {
    const app = await webApp({ corsOrigins: ["https://intranet.example"] });
    const allowed = await app.inject({ url: "/v2/license/ny/1", headers: { origin: "https://intranet.example" } });
    expect(allowed.headers["access-control-allow-origin"]).toBe("https://intranet.example");
    expect(allowed.headers["access-control-expose-headers"]).toContain("retry-after");
    expect(allowed.headers.vary).toContain("Origin");
    const other = await app.inject({ url: "/v2/license/ny/1", headers: { origin: "https://evil.example" } });
    expect(other.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("lets a configured origin read the service's errors and the app's own problems too", async () => {
    const origin = "https://intranet.example";
    const app = await webApp({ corsOrigins: [origin] });
    const down = await webApp({ apiBaseUrl: downUrl, corsOrigins: [origin] });
    for (const res of [
      await app.inject({ url: "/v2/search?state=ny&name=a", headers: { origin } }),
      await app.inject({ url: "/v2/slow", headers: { origin } }),
      await down.inject({ url: "/v2/states", headers: { origin } }),
    ]) {
      expect(res.headers["access-control-allow-origin"], String(res.statusCode)).toBe(origin);
      expect(res.headers["access-control-expose-headers"], String(res.statusCode)).toContain("x-request-id");
    }
    const preflight = await app.inject({
      method: "OPTIONS",
      url: "/v2/license/ny/1",
      headers: { origin, "access-control-request-method": "GET" },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe(origin);
    expect(preflight.headers["access-control-allow-methods"]).toBe("GET, HEAD");
    expect(preflight.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  });

  it("answers what it cannot read, route or do as problem+json, never Fastify's own error", async () => {
    const failing = {
      list: () => Promise.reject(new Error("SQLITE_CORRUPT: secret detail")),
      close: () => Promise.resolve(),
    } as unknown as WatchlistService;
    const app = await webApp({ watchlist: failing });
    const bare = await webApp({ distDir: null });
    const answers = [
      [await app.inject({ url: "/v2/license/ny/%E0%A4%A" }), 400],
      [await app.inject({ url: "/api/nothing-here" }), 404],
      [await bare.inject({ url: "/assets/gone.js" }), 404],
      [await app.inject({ url: "/api/watchlist" }), 500],
    ] as const;
    for (const [res, status] of answers) {
      expect(res.statusCode, res.body).toBe(status);
      expect(res.headers["content-type"], res.body).toMatch(/^application\/problem\+json/);
      expect(ProblemSchema.parse(res.json()).request_id, res.body).toBe(res.headers["x-request-id"]);
      expect(res.headers["content-security-policy"], res.body).toContain("frame-ancestors 'none'");
      expect(res.body).not.toMatch(/SQLITE|secret/);
    }
  });

  it("serves built files, and index.html for any page of the app", async () => {
    const app = await webApp();
    const asset = await app.inject({ url: "/assets/index-abc.js" });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers["cache-control"]).toContain("immutable");
    const icon = await app.inject({ url: "/favicon.png" });
    expect(icon.headers["cache-control"]).toBe("public, max-age=86400");

    for (const url of ["/", "/?state=ny&by=name&q=tavern", "/license/ny/0012345"]) {
      const page = await app.inject({ url, headers: { accept: "text/html" } });
      expect(page.statusCode, url).toBe(200);
      expect(page.body).toContain("<div id=root>");
    }

    const missing = await app.inject({ url: "/assets/gone.js", headers: { accept: "*/*" } });
    expect(missing.statusCode).toBe(404);
  });
});

describe("what a browser downloads, and keeps", () => {
  const page = { accept: "text/html" };

  it("sends pages and scripts compressed as the build wrote them, to a browser that accepts it", async () => {
    const app = await webApp();
    for (const [url, headers, body] of [
      ["/assets/index-abc.js", {}, SCRIPT],
      ["/license/ny/0012345", page, PAGE],
      ["/", page, PAGE],
    ] as const) {
      const br = await app.inject({ url, headers: { ...headers, "accept-encoding": "gzip, deflate, br" } });
      expect(br.headers["content-encoding"], url).toBe("br");
      expect(br.headers.vary, url).toContain("accept-encoding");
      expect(brotliDecompressSync(br.rawPayload).toString(), url).toBe(body);

      const gz = await app.inject({ url, headers: { ...headers, "accept-encoding": "gzip" } });
      expect(gz.headers["content-encoding"], url).toBe("gzip");
      expect(gunzipSync(gz.rawPayload).toString(), url).toBe(body);

      const plain = await app.inject({ url, headers });
      expect(plain.headers["content-encoding"], url).toBeUndefined();
      expect(plain.body, url).toBe(body);
    }
    const script = await app.inject({ url: "/assets/index-abc.js", headers: { "accept-encoding": "br" } });
    expect(script.headers["content-type"]).toContain("javascript");
    expect(Number(script.headers["content-length"])).toBeLessThan(SCRIPT.length / 4);
  });

  it("keeps built assets a year and asks again for the page every time, compressed or not", async () => {
    const app = await webApp();
    for (const encoding of ["br", "gzip", "identity"]) {
      const asset = await app.inject({ url: "/assets/index-abc.js", headers: { "accept-encoding": encoding } });
      expect(asset.headers["cache-control"], encoding).toBe("public, max-age=31536000, immutable");
      for (const url of ["/", "/license/ny/0012345"]) {
        const res = await app.inject({ url, headers: { ...page, "accept-encoding": encoding } });
        expect(res.headers["cache-control"], `${url} ${encoding}`).toBe("no-cache");
      }
    }
  });

  it("never compresses a /v2 answer, which the service makes fresh: that would cost CPU on every request", async () => {
    const app = await webApp();
    const res = await app.inject({ url: "/v2/license/ny/1", headers: { "accept-encoding": "gzip, br" } });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.json()).toEqual({ data: null });
  });

  it("sends a pasted link with the code of its page, so the browser fetches it alongside the entry", async () => {
    const app = await webApp();
    const links = async (url: string) =>
      String((await app.inject({ url, headers: page })).headers.link ?? "")
        .split(", ")
        .filter(Boolean);
    expect(await links("/license/ny/0012345")).toEqual([
      "</assets/license-route-l1.js>; rel=modulepreload",
      "</assets/shared-s1.js>; rel=modulepreload",
      "</assets/ny-n1.js>; rel=modulepreload",
    ]);
    expect(await links("/?state=ny&by=name&q=tavern")).toEqual([
      "</assets/search-page-p1.js>; rel=modulepreload",
      "</assets/shared-s1.js>; rel=modulepreload",
    ]);
    // A page the build has no chunk for, and a path that is no page, get the page alone.
    expect(await links("/verify")).toEqual([]);
    expect(await links("/nowhere")).toEqual([]);
  });
});

describe("/healthz and /readyz, for a load balancer", () => {
  it("answer without a session, even where every other route needs one", async () => {
    const state = await openAppState({ file: ":memory:" });
    let reasons = ["the app's database (postgres://db/app) is unreachable"];
    const app = await webApp({
      signIn: { accounts: createAccounts({ state, audit: () => {}, appUrl: "http://app.test" }) },
      readiness: async () => reasons,
    });
    expect((await app.inject({ url: "/v2/states" })).statusCode).toBe(401);
    const alive = await app.inject({ url: "/healthz" });
    expect(alive.statusCode).toBe(200);
    expect(alive.json()).toEqual({ status: "ok" });

    const waiting = await app.inject({ url: "/readyz" });
    expect(waiting.statusCode).toBe(503);
    expect(waiting.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(waiting.json<{ detail: string }>().detail).toContain(
      "the app's database (postgres://db/app) is unreachable",
    );
    reasons = [];
    expect((await app.inject({ url: "/readyz" })).statusCode).toBe(200);
  });

  it("is ready by default, and asks nothing of the license service", async () => {
    const before = seen.length;
    const response = await (await webApp({ apiBaseUrl: downUrl })).inject({ url: "/readyz" });
    expect(response.statusCode).toBe(200);
    expect(seen.length).toBe(before);
  });
});
