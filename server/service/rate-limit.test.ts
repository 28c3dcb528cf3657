import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProblemSchema } from "../../src/contract/problem.ts";
import { buildApp } from "./app.ts";
import { permitsPerTrip } from "./rate-limit.ts";
import { startRedis, type RunningProcess } from "../testing/engines.ts";
import { licenseFixture } from "../testing/license-fixture.ts";
import { tempService } from "../testing/temp-service.ts";

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

describe("rate limit per key in Redis (REDIS_URL), shared by every node", () => {
  let redis: RunningProcess;
  let shared: Awaited<ReturnType<typeof tempService>>;
  const limit = { perSecond: 5, burst: 10 };
  beforeAll(async () => {
    redis = await startRedis();
    shared = await tempService({ ny: [licenseFixture({ license: "1268007" })] });
  });
  afterAll(async () => {
    await shared.close();
    await redis.stop();
  });

  /** A service node over the same data and keys, counting in `redisUrl`; its warnings kept in `warnings`. */
  async function node(redisUrl: string) {
    const warnings: string[] = [];
    const app = buildApp({
      licenses: shared.licenses,
      keys: shared.keys,
      rateLimit: { ...limit, redisUrl },
      logger: { level: "warn", stream: { write: (line: string) => void warnings.push(line) } },
    });
    await app.ready();
    return {
      app,
      warnings,
      get: (headers: Record<string, string>) => app.inject({ url: "/v2/license/ny/1268007", headers }),
    };
  }

  it("limits a key's burst spread across two nodes as one", async () => {
    const [a, b] = [await node(redis.url), await node(redis.url)];
    const { headers } = await shared.keyFor(["ny"]);
    const statuses = [];
    for (let i = 0; i < 12; i++) statuses.push((await (i % 2 ? a : b).get(headers)).statusCode);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses.slice(10)).toEqual([429, 429]);
    // Another key is counted on its own, on either node.
    expect((await a.get((await shared.keyFor(["ny"])).headers)).statusCode).toBe(200);
    await Promise.all([a.app.close(), b.app.close()]);
  });

  it("takes a high limit's permits from Redis in blocks, never letting the nodes together past it", async () => {
    const big = { perSecond: 100, burst: 200 };
    const node = async () => {
      const app = buildApp({
        licenses: shared.licenses,
        keys: shared.keys,
        rateLimit: { ...big, redisUrl: redis.url },
      });
      await app.ready();
      return app;
    };
    const [a, b, c] = [await node(), await node(), await node()];
    const { headers } = await shared.keyFor(["ny"]);
    const statuses = await Promise.all(
      Array.from({ length: 300 }, (_, i) => [a, b, c][i % 3]!.inject({ url: "/v2/license/ny/1268007", headers })),
    ).then((answers) => answers.map((r) => r.statusCode));
    const ok = statuses.filter((s) => s === 200).length;
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    // At most the limit; at the least the limit less what each node took and had not spent (a block of 10 each).
    expect(ok).toBeLessThanOrEqual(200);
    expect(ok).toBeGreaterThanOrEqual(200 - 3 * (permitsPerTrip(200) - 1));
    await Promise.all([a.close(), b.close(), c.close()]);
  });

  it("while Redis is unreachable, serves and counts each key on each node alone, logs it once, and /readyz names Redis; then shares again", async () => {
    const doomed = await startRedis();
    const [a, b] = [await node(doomed.url), await node(doomed.url)];
    let stopped = false;
    let back: ChildProcess | undefined;
    try {
      expect((await a.app.inject({ url: "/readyz" })).statusCode).toBe(200);
      const { headers } = await shared.keyFor(["ny"]);
      expect((await a.get(headers)).statusCode).toBe(200);
      await doomed.stop();
      stopped = true;

      // Served, not failed: each node now lets the key make its whole limit, and no more.
      for (const n of [a, b]) {
        const statuses = [];
        for (let i = 0; i < 11; i++) statuses.push((await n.get(headers)).statusCode);
        expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
        expect(statuses[10]).toBe(429);
      }
      const ready = await a.app.inject({ url: "/readyz" });
      expect(ready.statusCode).toBe(503);
      expect(ready.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(ProblemSchema.parse(ready.json()).detail).toMatch(/Redis .* is unreachable/);
      const said = a.warnings.filter((line) => line.includes("is unreachable"));
      expect(said).toHaveLength(1);
      expect((JSON.parse(said[0]!) as { msg: string }).msg).toMatch(/counted on this node alone/);

      // Redis back (a new one, on the same port): ready again, the limit shared again, and the log says so.
      back = spawn("redis-server", ["--port", String(doomed.port), "--bind", "127.0.0.1", "--save", ""], {
        stdio: "ignore",
      });
      for (const n of [a, b]) {
        const until = Date.now() + 10_000;
        while ((await n.app.inject({ url: "/readyz" })).statusCode !== 200 && Date.now() < until) {
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      const again = (await shared.keyFor(["ny"])).headers;
      const statuses = [];
      for (let i = 0; i < 11; i++) statuses.push((await (i % 2 ? a : b).get(again)).statusCode);
      expect(statuses).toEqual([...Array(10).fill(200), 429]);
      expect(a.warnings.some((line) => line.includes("answers again"))).toBe(true);
    } finally {
      back?.kill("SIGKILL");
      // Stopped once only: a killed redis-server has no exit code, and a second stop() would wait for one.
      await Promise.all([a.app.close(), b.app.close()]);
      if (!stopped) await doomed.stop();
    }
  });
});
