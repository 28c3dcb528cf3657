import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import type { ServedSnapshot } from "../../src/contract/envelopes.ts";
import { nameServedSnapshot, SNAPSHOT_HEADER } from "./snapshot-header.ts";

const snapshot = (digit: string): ServedSnapshot => ({
  sha256: digit.repeat(64),
  published_at: "2026-11-26T12:00:00.000Z",
});

describe("x-lls-snapshot", () => {
  it("names the snapshot the handler read, even when a swap came between the request's arrival and its handler", async () => {
    let served = snapshot("a");
    const app = Fastify();
    nameServedSnapshot(app, () => served);
    // As a rate limit on Redis would: a hook that waits, during which a new snapshot is swapped in.
    app.addHook("onRequest", async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      served = snapshot("b");
    });
    app.get("/v2/data", (_request, reply) => void reply.send({ read: served.sha256.slice(0, 12) }));
    const answer = await app.inject({ url: "/v2/data" });
    expect(answer.headers[SNAPSHOT_HEADER]).toBe("b".repeat(12));
    expect(answer.json()).toEqual({ read: "b".repeat(12) });
    // Answers no handler gives carry it too.
    const missing = await app.inject({ url: "/v2/nothing" });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers[SNAPSHOT_HEADER]).toBe("b".repeat(12));
    await app.close();
  });

  it("refuses a /v2 route whose handler is async, in any plugin: a swap could come between its reads", async () => {
    const app = Fastify();
    nameServedSnapshot(app, () => snapshot("a"));
    app.register(async (api) => {
      api.get("/v2/slow", async () => ({}));
    });
    await expect(app.ready()).rejects.toThrow(/GET \/v2\/slow: a route reading the licenses must be synchronous/);
  });
});
