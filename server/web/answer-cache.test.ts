import { describe, expect, it } from "vitest";
import { createAnswerCache, type CachedAnswer } from "./answer-cache.ts";

const answer = (body: string, status = 200, headers: [string, string][] = []): CachedAnswer => ({
  status,
  headers: [["content-type", "application/json"], ...headers],
  body: Buffer.from(body),
});

function cacheAt(options: { ttlMs?: number; maxEntries?: number; maxBytes?: number } = {}) {
  let clock = 1_000_000;
  const cache = createAnswerCache({ ttlMs: 60_000, maxEntries: 100, maxBytes: 1_000, ...options, now: () => clock });
  return { cache, advance: (ms: number) => (clock += ms) };
}

describe("the proxy's answer cache", () => {
  it("gives a stored 200 back with its age, until its time is up", () => {
    const { cache, advance } = cacheAt();
    cache.set("/v2/search?state=ny&name=ta", answer('{"data":[]}'));
    advance(2_500);
    expect(cache.get("/v2/search?state=ny&name=ta")).toMatchObject({ ageSeconds: 2 });
    expect(cache.get("/v2/search?state=ny&name=ta")?.answer.body.toString()).toBe('{"data":[]}');
    expect(cache.get("/v2/search?state=ny&name=tab")).toBeUndefined();
    advance(57_500);
    expect(cache.get("/v2/search?state=ny&name=ta")).toBeUndefined();
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
  });

  it.each([429, 404, 500, 502, 503, 504])("never keeps a %i", (status) => {
    const { cache } = cacheAt();
    cache.set("/v2/license/ny/1", answer("{}", status));
    expect(cache.get("/v2/license/ny/1")).toBeUndefined();
  });

  it("keeps nothing the service says not to, and no longer than its max-age", () => {
    const { cache, advance } = cacheAt();
    for (const value of ["no-store", "private, max-age=600", "no-cache"]) {
      cache.set(value, answer("{}", 200, [["cache-control", value]]));
      expect(cache.get(value), value).toBeUndefined();
    }
    cache.set("short", answer("{}", 200, [["cache-control", "max-age=5"]]));
    advance(4_000);
    expect(cache.get("short")).toBeDefined();
    advance(1_000);
    expect(cache.get("short")).toBeUndefined();
  });

  it("holds at most its count of answers, dropping the least recently used", () => {
    const { cache } = cacheAt({ maxEntries: 3 });
    for (const key of ["a", "b", "c"]) cache.set(key, answer(key));
    cache.get("a");
    cache.set("d", answer("d"));
    expect(["a", "b", "c", "d"].map((key) => cache.get(key) !== undefined)).toEqual([true, false, true, true]);
    expect(cache.size.entries).toBe(3);
  });

  it("holds at most its bytes of bodies, and never one larger than all of them", () => {
    const { cache } = cacheAt({ maxBytes: 100 });
    for (let i = 0; i < 10; i++) cache.set(`k${i}`, answer("x".repeat(30)));
    expect(cache.size).toEqual({ entries: 3, bytes: 90 });
    expect(cache.get("k9")).toBeDefined();
    expect(cache.get("k0")).toBeUndefined();
    cache.set("huge", answer("x".repeat(101)));
    expect(cache.get("huge")).toBeUndefined();
    expect(cache.size.bytes).toBe(90);
  });

  it("replaces an answer stored again under the same key, counting its bytes once", () => {
    const { cache } = cacheAt();
    cache.set("a", answer("old"));
    cache.set("a", answer("newer"));
    expect(cache.get("a")?.answer.body.toString()).toBe("newer");
    expect(cache.size).toEqual({ entries: 1, bytes: 5 });
  });
});
