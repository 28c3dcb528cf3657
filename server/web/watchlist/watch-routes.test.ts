import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { licenseRecord, startFakeService, type FakeService } from "../../testing/fake-license-service.ts";
import { buildWebApp } from "../web-app.ts";
import { migrateStateDb, openStateDb, type StateDb } from "../../db/state-db.ts";
import { createWatchlist } from "./watchlist.ts";
import { WATCH_MIGRATIONS } from "./watch-store.ts";

let dir: string;
let service: FakeService;
let app: Awaited<ReturnType<typeof buildWebApp>>;
let state: StateDb;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "watch-routes-"));
  mkdirSync(join(dir, "dist"));
  writeFileSync(join(dir, "dist", "index.html"), "<!doctype html><div id=root></div>");
  service = await startFakeService();
  service.records.set("ny/0012345", licenseRecord("ny", "0012345"));
  state = openStateDb({ file: join(dir, "app.sqlite") });
  await migrateStateDb(state, "app", WATCH_MIGRATIONS);
  const watchlist = await createWatchlist({
    state,
    service: { baseUrl: service.url, apiKey: "k", requestsPerSecond: 1000 },
    appUrl: "http://app.test",
    checkEveryMs: null,
    checkOnStart: false,
  });
  app = await buildWebApp({ distDir: join(dir, "dist"), apiBaseUrl: service.url, apiKey: "k", watchlist });
});

afterAll(async () => {
  await app.close();
  await state.close();
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

const same = { "sec-fetch-site": "same-origin" };
const json = { ...same, "content-type": "application/json" };

describe("/api/watchlist", () => {
  it("watches a license from its page, says so, and stops watching it", async () => {
    const before = await app.inject({ url: "/api/watchlist/ny/0012345" });
    expect(before.json()).toEqual({ data: null });

    const watch = await app.inject({ method: "PUT", url: "/api/watchlist/ny/0012345", headers: same });
    expect(watch.statusCode).toBe(200);
    expect(watch.json()).toMatchObject({ data: { state: "ny", license: "0012345", outcome: "found" } });
    expect((await app.inject({ url: "/api/watchlist" })).json()).toMatchObject({
      data: { entries: [{ license: "0012345" }], max: 10_000 },
    });

    const unwatch = await app.inject({ method: "DELETE", url: "/api/watchlist/ny/0012345", headers: same });
    expect(unwatch.statusCode).toBe(204);
    expect((await app.inject({ url: "/api/watchlist/ny/0012345" })).json()).toEqual({ data: null });
  });

  it("refuses to watch a number the service does not hold, in words, as problem+json", async () => {
    const response = await app.inject({ method: "PUT", url: "/api/watchlist/ny/999", headers: same });
    expect(response.statusCode).toBe(422);
    expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(response.json()).toMatchObject({
      status: 422,
      detail: "No New York license “999” in our data: check the number as the state writes it.",
    });
  });

  it("takes a change only from the app's own pages", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/api/watchlist/seen",
      headers: { "sec-fetch-site": "cross-site", "content-type": "application/json" },
      payload: { up_to: 1 },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({
      detail: "The watchlist can only be changed from the License Lookup app itself.",
    });
  });

  it("takes no change from another site that names itself only by its Origin, and every change from its own", async () => {
    const changes = [
      ["POST", "/api/watchlist", { rows: [{ row: 1, state: "ny", license: "0012345" }] }],
      ["POST", "/api/watchlist/check", undefined],
      ["POST", "/api/watchlist/seen", { up_to: 1 }],
      ["PUT", "/api/watchlist/ny/0012345", undefined],
      ["DELETE", "/api/watchlist/ny/0012345", undefined],
    ] as const;
    for (const [method, url, payload] of changes) {
      const response = await app.inject({
        method,
        url,
        payload,
        headers: { host: "app.test", origin: "https://evil.example" },
      });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json()).toMatchObject({
        detail: "The watchlist can only be changed from the License Lookup app itself.",
      });
    }
    expect((await app.inject({ url: "/api/watchlist/ny/0012345" })).json()).toEqual({ data: null });

    const own = { host: "app.test", origin: "http://app.test" };
    expect((await app.inject({ method: "PUT", url: "/api/watchlist/ny/0012345", headers: own })).statusCode).toBe(200);
    expect((await app.inject({ method: "DELETE", url: "/api/watchlist/ny/0012345", headers: own })).statusCode).toBe(
      204,
    );
  });

  it("answers a list it cannot read with a 400 or 415 that says what to send", async () => {
    const notJson = await app.inject({
      method: "POST",
      url: "/api/watchlist",
      headers: { "content-type": "application/xml" },
      payload: "<rows/>",
    });
    expect(notJson.statusCode).toBe(415);
    expect(notJson.json()).toMatchObject({ detail: "Send the rows as JSON (Content-Type: application/json)." });

    const broken = await app.inject({ method: "POST", url: "/api/watchlist", headers: json, payload: "{" });
    expect(broken.statusCode).toBe(400);
    expect(broken.headers["content-type"]).toMatch(/^application\/problem\+json/);

    const wrong = await app.inject({ method: "POST", url: "/api/watchlist", headers: json, payload: { rows: [] } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<{ detail: string }>().detail).toMatch(
      /^Send \{"rows": \[\{"row": 1, "state": "NY", "license": "0012345"\}/,
    );

    const rows = Array.from({ length: 10_001 }, (_, i) => ({ row: i + 1, state: "ny", license: String(i) }));
    const tooMany = await app.inject({ method: "POST", url: "/api/watchlist", headers: json, payload: { rows } });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json<{ detail: string }>().detail).toBe(
      "At most 10,000 rows can be added at once; this list has 10,001.",
    );
  });

  it("starts a check on demand and answers it at once", async () => {
    const response = await app.inject({ method: "POST", url: "/api/watchlist/check", headers: same });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toMatchObject({ data: { trigger: "check now", finished_at: null } });
    const { id } = response.json<{ data: { id: number } }>().data;
    const followed = await app.inject({ url: "/api/watchlist/check" });
    expect(followed.json()).toMatchObject({ data: { id, trigger: "check now" } });
  });

  it("answers an unknown watchlist route with a 404 problem, not the app's page", async () => {
    const response = await app.inject({ url: "/api/watchlist/a/b/c", headers: { accept: "text/html" } });
    expect(response.statusCode).toBe(404);
    expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
  });
});
