import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startReplayServer, type Fault } from "../../testing/replay-server.ts";
import { defaultUserAgent, download, parseRetryAfter, withOrigin, type DownloadOptions } from "./http-client.ts";

const CSV = "license,name\nNY-1,ACME WINES\nNY-2,BETA LIQUORS\n".repeat(200);
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const FAST: Partial<DownloadOptions> = { backoffMs: 20, idleTimeoutMs: 1000, totalTimeoutMs: 5000 };

let dir: string;
let replay: Awaited<ReturnType<typeof startReplayServer>>;

async function serve(faults: Fault[] = [], extra: { etag?: string; lastModified?: string } = {}) {
  replay = await startReplayServer({ "/rows.csv": { body: CSV, contentType: "text/csv", faults, ...extra } });
}
const to = () => join(dir, "rows.csv");
const get = (options: Partial<DownloadOptions> = {}) =>
  download(replay.url("/rows.csv"), { to: to(), ...FAST, ...options });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "http-client-test-"));
});
afterEach(async () => {
  await replay.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("download", () => {
  it("writes the body to the file and gives its sha256 and length, naming the product in its User-Agent", async () => {
    await serve();
    const result = await get();
    expect(result).toMatchObject({ kind: "downloaded", sha256: sha256(CSV), bytes: CSV.length, attempts: 1 });
    expect(readFileSync(to(), "utf8")).toBe(CSV);
    expect(replay.requests[0]?.headers["user-agent"]).toMatch(/^LicenseLookup\/\d+\.\d+\.\d+ \(\+.+\)$/);
    expect(readdirSync(dir)).toEqual(["rows.csv"]);
  });

  it("sends the User-Agent an operator sets, by option or SYNC_USER_AGENT", async () => {
    await serve();
    await get({ userAgent: "CityClerk/1 (+clerk@example.gov)" });
    expect(replay.requests[0]?.headers["user-agent"]).toBe("CityClerk/1 (+clerk@example.gov)");
    expect(defaultUserAgent({ SYNC_USER_AGENT: "Mirror/2 (+ops@example.org)" })).toBe("Mirror/2 (+ops@example.org)");
  });

  it("sends the validators it is given and reports 304 as not modified, leaving the file alone", async () => {
    await serve([], { etag: '"v1"', lastModified: "Tue, 03 Nov 2026 10:00:00 GMT" });
    const first = await get();
    expect(first).toMatchObject({ etag: '"v1"', lastModified: "Tue, 03 Nov 2026 10:00:00 GMT" });
    rmSync(to());

    expect(await get({ validators: { etag: '"v1"' } })).toMatchObject({ kind: "not-modified" });
    expect(await get({ validators: { lastModified: "Tue, 03 Nov 2026 10:00:00 GMT" } })).toMatchObject({
      kind: "not-modified",
    });
    expect(replay.requests[1]?.headers["if-none-match"]).toBe('"v1"');
    expect(replay.requests[2]?.headers["if-modified-since"]).toBe("Tue, 03 Nov 2026 10:00:00 GMT");
    expect(readdirSync(dir)).toEqual([]);
  });

  it("downloads again when the validator no longer matches", async () => {
    await serve([], { etag: '"v2"' });
    expect(await get({ validators: { etag: '"v1"' } })).toMatchObject({ kind: "downloaded", etag: '"v2"' });
  });

  it("waits as long as a 429's Retry-After asks, then gets the file", async () => {
    await serve([{ kind: "status", status: 429, retryAfter: "1" }]);
    const result = await get();
    expect(result).toMatchObject({ kind: "downloaded", attempts: 2 });
    const [first, second] = replay.requests;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
  });

  it("takes Retry-After as an HTTP date too", () => {
    const now = Date.parse("Tue, 03 Nov 2026 10:00:00 GMT");
    expect(parseRetryAfter("Tue, 03 Nov 2026 10:00:05 GMT", now)).toBe(5000);
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
  });

  it("gives up at once when Retry-After asks for longer than it may wait, saying so", async () => {
    await serve([{ kind: "status", status: 429, retryAfter: "3600" }]);
    const error = await get({ maxWaitMs: 2000 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "HttpStatusError", status: 429 });
    expect((error as Error).message).toContain(replay.url("/rows.csv"));
    expect((error as Error).message).toContain("wait 3600 s");
    expect(replay.requests).toHaveLength(1);
  });

  it("tries again after a 500 and after a dropped connection, with growing waits", async () => {
    await serve([{ kind: "status", status: 500 }, { kind: "reset" }]);
    const result = await get({ backoffMs: 100 });
    expect(result).toMatchObject({ kind: "downloaded", sha256: sha256(CSV), attempts: 3 });
    const [a, b, c] = replay.requests.map((r) => r.at);
    expect(b! - a!).toBeGreaterThanOrEqual(45);
    expect(c! - b!).toBeGreaterThanOrEqual(95);
  });

  it("stops after the attempts it is allowed and names the last answer", async () => {
    await serve(Array.from({ length: 5 }, () => ({ kind: "status", status: 503 }) as const));
    const error = await get({ attempts: 3 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "HttpStatusError", status: 503 });
    expect((error as Error).message).toBe(`${replay.url("/rows.csv")} answered 503: Service Unavailable.`);
    expect(replay.requests).toHaveLength(3);
  });

  it("does not try again after a 404", async () => {
    await serve();
    const error = await download(replay.url("/gone.csv"), { to: to(), ...FAST }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "HttpStatusError", status: 404 });
    expect(replay.requests).toHaveLength(1);
  });

  it("ends a server that never answers at the idle limit, trying again as it may", async () => {
    await serve([{ kind: "silent" }, { kind: "silent" }]);
    const started = Date.now();
    const error = await get({ idleTimeoutMs: 200, attempts: 2 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "DownloadTimeout", limit: "idle" });
    expect((error as Error).message).toContain("sent nothing for 200 ms");
    expect(replay.requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("ends a download that stalls after its headers at the whole-download limit, keeping nothing", async () => {
    await serve([{ kind: "stall", after: 100 }]);
    const started = Date.now();
    const error = await get({ idleTimeoutMs: 5000, totalTimeoutMs: 400 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "DownloadTimeout", limit: "total" });
    expect((error as Error).message).toBe(
      `${replay.url("/rows.csv")} did not finish within 400 ms, the time allowed for the whole download.`,
    );
    expect(Date.now() - started).toBeLessThan(1000);
    expect(replay.requests).toHaveLength(1);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("refuses a body cut short of its Content-Length, keeping nothing", async () => {
    await serve([{ kind: "cut", at: 1000 }]);
    const error = await get({ attempts: 1 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "TruncatedDownload", received: 1000, expected: CSV.length });
    expect((error as Error).message).toBe(
      `${replay.url("/rows.csv")} sent 1000 of the ${CSV.length} bytes it announced: the file is incomplete and was not kept.`,
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it("tries again after a cut body, and keeps the whole one", async () => {
    await serve([{ kind: "cut", at: 1000 }]);
    expect(await get()).toMatchObject({ kind: "downloaded", bytes: CSV.length, attempts: 2 });
  });

  it("refuses an HTML page served with status 200 where data was expected, without trying again", async () => {
    await serve([{ kind: "html" }]);
    const error = await get().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "HtmlInsteadOfData" });
    expect((error as Error).message).toContain(`${replay.url("/rows.csv")} sent a web page where a data file`);
    expect(replay.requests).toHaveLength(1);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("knows an HTML page by its first bytes when the server calls it data", async () => {
    await serve([{ kind: "html", contentType: "text/csv" }]);
    await expect(get()).rejects.toMatchObject({ name: "HtmlInsteadOfData" });
    expect(readdirSync(dir)).toEqual([]);
  });

  it("takes an HTML page when asked to (an index page)", async () => {
    await serve([{ kind: "html" }]);
    expect(await get({ allowHtml: true })).toMatchObject({
      kind: "downloaded",
      contentType: "text/html; charset=utf-8",
    });
  });

  it("sends one request at a time per agency, and lets agencies run side by side", async () => {
    await serve([{ kind: "stall", after: 0 }]);
    replay.serve("/other.csv", { body: CSV, faults: [{ kind: "stall", after: 0 }] });
    const options = { ...FAST, idleTimeoutMs: 150, attempts: 2 };
    const sameAgency = await Promise.all([
      download(replay.url("/rows.csv"), { ...options, to: join(dir, "a"), agency: "ny" }),
      download(replay.url("/rows.csv"), { ...options, to: join(dir, "b"), agency: "ny" }),
      download(replay.url("/other.csv"), { ...options, to: join(dir, "c"), agency: "ny" }),
    ]);
    expect(sameAgency.map((r) => r.kind)).toEqual(["downloaded", "downloaded", "downloaded"]);
    expect(replay.maxInFlight()).toBe(1);

    replay.serve("/rows.csv", { body: CSV, faults: [{ kind: "stall", after: 0 }] });
    await Promise.all([
      download(replay.url("/rows.csv"), { ...options, to: join(dir, "d"), agency: "ny" }),
      download(replay.url("/other.csv"), { ...options, to: join(dir, "e"), agency: "nj" }),
    ]);
    expect(replay.maxInFlight()).toBe(2);
  });
});

describe("withOrigin", () => {
  it("replaces scheme, host and port and keeps the path and query", () => {
    const url = "https://data.ny.gov/api/views/9s3h-dpkz/rows.csv?accessType=DOWNLOAD&$order=:id";
    expect(withOrigin(url, "http://127.0.0.1:8123")).toBe(
      "http://127.0.0.1:8123/api/views/9s3h-dpkz/rows.csv?accessType=DOWNLOAD&$order=:id",
    );
    expect(withOrigin("https://a.example:8443/x?y=1", "http://mirror.local")).toBe("http://mirror.local/x?y=1");
    expect(withOrigin(url, undefined)).toBe(url);
    expect(() => withOrigin(url, "http://mirror.local/prefix")).toThrow(/scheme and host only/);
  });
});
