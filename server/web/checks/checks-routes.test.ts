import Fastify, { type FastifyInstance } from "fastify";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Papa from "papaparse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { User } from "../../../src/contract/accounts.ts";
import {
  ChainStateResponseSchema,
  LogPageResponseSchema,
  ReceiptResponseSchema,
  RecordChecksResponseSchema,
} from "../../../src/contract/checks.ts";
import { ProblemSchema } from "../../../src/contract/problem.ts";
import { licenseFixture } from "../../testing/license-fixture.ts";
import { tempService } from "../../testing/temp-service.ts";
import type { StateDb } from "../../db/state-db.ts";
import { openAppState } from "../app-db.ts";
import { createServiceReader } from "../watchlist/service-reader.ts";
import { createChecksLog, type ChecksLog } from "./checks-log.ts";
import { checksRoutes } from "./checks-routes.ts";

const NOW = new Date("2026-06-03T15:02:00Z");
const USERS: Record<string, User> = {
  maria: { id: 1, email: "maria@example.com", name: "Maria Lopez", role: "member" },
  sam: { id: 2, email: "sam@example.com", name: "Sam Lee", role: "member" },
  ana: { id: 3, email: "ana@example.com", name: null, role: "auditor" },
};

let service: Awaited<ReturnType<typeof tempService>>;
let dir: string;
let db: StateDb;
let log: ChecksLog;
let app: FastifyInstance;
// The log's clock: the chain's state walks the whole record again a day after it last did.
let clock = NOW;

beforeAll(async () => {
  service = await tempService({
    ny: [licenseFixture({ license: "1268007" }), licenseFixture({ license: "0012345" })],
  });
  const { key } = await service.keyFor(["ny"]);
  const baseUrl = await service.app.listen({ port: 0, host: "127.0.0.1" });
  dir = mkdtempSync(join(tmpdir(), "checks-routes-"));
  db = await openAppState({ file: join(dir, "app.sqlite") });
  log = createChecksLog(db, { appVersion: "test", now: () => clock, key: null });
  const reader = createServiceReader({ baseUrl, apiKey: key, requestsPerSecond: 1000 });
  app = Fastify();
  // Sign-in is another part's: here a header names who is signed in.
  app.decorateRequest("user", null);
  app.addHook("onRequest", async (request) => {
    request.user = USERS[String(request.headers["x-test-user"])] ?? null;
  });
  await app.register(checksRoutes({ log, reader, now: () => NOW }));
});
afterAll(async () => {
  await app.close();
  await service.close();
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

const as = (user: string | null, url: string) => app.inject({ url, headers: user ? { "x-test-user": user } : {} });
async function record(user: string, rows: { state: string; license: string }[], action = "verify") {
  const response = await app.inject({
    method: "POST",
    url: "/api/checks",
    headers: { "x-test-user": user, "sec-fetch-site": "same-origin" },
    payload: { action, zone: "America/New_York", rows },
  });
  expect(response.statusCode).toBe(200);
  return RecordChecksResponseSchema.parse(response.json()).data.ids;
}
const problemOf = (response: { statusCode: number; json: () => unknown }) => ({
  status: response.statusCode,
  detail: ProblemSchema.parse(response.json()).detail,
});

let mariaIds: (number | null)[];
let samIds: (number | null)[];
beforeAll(async () => {
  mariaIds = await record("maria", [
    { state: "ny", license: "1268007" },
    { state: "ny", license: "0012345" },
    { state: "ny", license: "=SUM(A1)" },
  ]);
  samIds = await record("sam", [{ state: "ny", license: "404" }], "license page");
});

describe("who may record and read", () => {
  it("answers 401 to every route without a session", async () => {
    for (const url of ["/api/checks", "/api/checks.csv", "/api/checks/chain", "/api/checks/1"]) {
      expect((await as(null, url)).statusCode).toBe(401);
    }
    const post = await app.inject({ method: "POST", url: "/api/checks", payload: { action: "verify", rows: [] } });
    expect(post.statusCode).toBe(401);
  });

  it("records an auditor's check too: an auditor who opens a page saw a verdict", async () => {
    const [id] = await record("ana", [{ state: "ny", license: "1268007" }], "license page");
    expect(await log.get(id!)).toMatchObject({ user_email: "ana@example.com", user_role: "auditor", verdict: "valid" });
  });

  it("refuses a check sent from another site", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/api/checks",
      headers: { "x-test-user": "maria", "sec-fetch-site": "cross-site" },
      payload: { action: "verify", rows: [{ state: "ny", license: "1268007" }] },
    });
    expect(problemOf(response)).toEqual({
      status: 403,
      detail: "Checks can only be recorded from the License Lookup app itself.",
    });
  });

  it("refuses a check from another site that names itself only by its Origin", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/api/checks",
      headers: { "x-test-user": "maria", host: "app.test", origin: "https://evil.example" },
      payload: { action: "verify", rows: [{ state: "ny", license: "1268007" }] },
    });
    expect(problemOf(response)).toEqual({
      status: 403,
      detail: "Checks can only be recorded from the License Lookup app itself.",
    });
  });

  it("shows a member only their own entries, whatever user they ask for", async () => {
    for (const url of ["/api/checks", "/api/checks?user=sam@example.com"]) {
      const page = LogPageResponseSchema.parse((await as("maria", url)).json()).data;
      expect(page.entries.map((e) => e.user_email)).toEqual(Array(3).fill("maria@example.com"));
    }
  });

  it("shows an auditor everyone's entries, filtered as asked", async () => {
    const all = LogPageResponseSchema.parse((await as("ana", "/api/checks?user=&verdict=")).json()).data;
    expect(new Set(all.entries.map((e) => e.user_email))).toEqual(
      new Set(["maria@example.com", "sam@example.com", "ana@example.com"]),
    );
    const sams = LogPageResponseSchema.parse((await as("ana", "/api/checks?user=sam@example.com")).json()).data;
    expect(sams.entries.map((e) => [e.license, e.verdict, e.action])).toEqual([["404", "not found", "license page"]]);
    const dated = LogPageResponseSchema.parse((await as("ana", "/api/checks?from=2026-06-03&to=2026-06-03")).json());
    expect(dated.data.total).toBe(all.total);
    const before = LogPageResponseSchema.parse((await as("ana", "/api/checks?to=2026-06-02&state=New York")).json());
    expect(before.data.total).toBe(0);
  });

  it("says which filter it could not read", async () => {
    expect(problemOf(await as("ana", "/api/checks?from=2027-02-30"))).toMatchObject({ status: 400 });
    // Dates no Date can hold, in the list and its download: a 400 that says so, never a 500.
    for (const path of ["/api/checks", "/api/checks.csv"]) {
      for (const query of ["from=junk", "to=9999-99-99", "from=2026-1-1", "to=%0A2026-01-01"]) {
        const problem = problemOf(await as("ana", `${path}?${query}`));
        expect(problem, `${path}?${query}`).toMatchObject({ status: 400 });
        expect(problem.detail, `${path}?${query}`).toMatch(/^Some filters could not be read/);
      }
    }
    expect(problemOf(await as("ana", "/api/checks?verdict=fine")).detail).toMatch(/verdict \(valid, expired/);
    expect(problemOf(await as("ana", "/api/checks?state=XX")).detail).toBe(
      "“XX” is not a state: write it as NY or New York.",
    );
  });
});

describe("receipts", () => {
  it("gives a member their own receipt, with the record as it was stored", async () => {
    const response = await as("maria", `/api/checks/${mariaIds[0]}`);
    const receipt = ReceiptResponseSchema.parse(response.json()).data;
    expect(receipt.entry).toMatchObject({ id: mariaIds[0], license: "1268007", user_name: "Maria Lopez" });
    expect(receipt.record).toEqual(JSON.parse(receipt.entry.record_json!));
    expect(receipt.provenance?.source.sha256).toBe(receipt.entry.source_sha256);
  });

  it("answers a member asking for another's receipt as if it did not exist", async () => {
    const theirs = problemOf(await as("maria", `/api/checks/${samIds[0]}`));
    const none = problemOf(await as("maria", "/api/checks/99999"));
    expect(theirs.status).toBe(404);
    expect(none.status).toBe(404);
    expect(theirs.detail).toMatch(/^There is no entry \d+ among the checks you may read\.$/);
    expect((await as("ana", `/api/checks/${samIds[0]}`)).statusCode).toBe(200);
    expect((await as("ana", "/api/checks/abc")).statusCode).toBe(404);
  });
});

describe("CSV", () => {
  it("downloads every matching entry, a formula-looking cell made harmless", async () => {
    const response = await as("ana", "/api/checks.csv?user=maria@example.com");
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers["content-disposition"]).toBe('attachment; filename="checks-2026-06-03.csv"');
    const rows = Papa.parse<Record<string, string>>(response.body.replace(/^\uFEFF/, ""), {
      header: true,
      skipEmptyLines: true,
    }).data;
    expect(rows.map((r) => [r.id, r.license, r.verdict])).toEqual([
      [String(mariaIds[2]), "'=SUM(A1)", "not found"],
      [String(mariaIds[1]), "0012345", "valid"],
      [String(mariaIds[0]), "1268007", "valid"],
    ]);
    expect(JSON.parse(rows[1]!.record_json!)).toMatchObject({ license: "0012345" });
    expect(rows[1]!.hash).toBe((await log.get(mariaIds[1]!))!.hash);
    // A member's download is their own too.
    expect((await as("sam", "/api/checks.csv")).body).not.toContain("maria@example.com");
  });
});

describe("the chain's state", () => {
  it("says whether the chain holds, to any role", async () => {
    const state = ChainStateResponseSchema.parse((await as("sam", "/api/checks/chain")).json()).data;
    expect(state).toMatchObject({
      ok: true,
      broken_at: null,
      head: (await log.head()).hash,
      entries: (await log.head()).entries,
    });
  });

  it("names an older entry altered in the database at its next whole walk, a day after the last", async () => {
    const chain = async () => ChainStateResponseSchema.parse((await as("maria", "/api/checks/chain")).json()).data;
    const id = mariaIds[1]!;
    db.sqlite!.prepare("UPDATE log_entries SET verdict = 'expired' WHERE id = ?").run(id);
    // Between whole walks a view walks only the entries after the last it verified.
    const between = await chain();
    clock = new Date(NOW.getTime() + 25 * 3_600_000);
    const whole = await chain();
    db.sqlite!.prepare("UPDATE log_entries SET verdict = 'valid' WHERE id = ?").run(id);
    clock = NOW;
    expect(between).toMatchObject({ ok: true });
    expect(whole).toMatchObject({
      ok: false,
      broken_at: id,
      problem: `entry ${id}: its content does not match its hash (changed after it was written)`,
    });
  });
});

describe("a long record", () => {
  it("downloads whole as CSV, page after page, the same entries as the list", async () => {
    await log.appendMany(
      Array.from({ length: 2_500 }, (_, i) => ({
        action: "verify" as const,
        user: { email: USERS.sam!.email, name: USERS.sam!.name, role: "member" },
        state: "ny",
        license: String(i),
      })),
    );
    const response = await as("ana", "/api/checks.csv");
    expect(response.statusCode).toBe(200);
    expect(response.body.startsWith("\uFEFFid,")).toBe(true);
    const rows = Papa.parse<Record<string, string>>(response.body.replace(/^\uFEFF/, ""), {
      header: true,
      skipEmptyLines: true,
    }).data;
    const listed = await log.list({ limit: 10_000 });
    expect(rows.map((r) => Number(r.id))).toEqual(listed.entries.map((e) => e.id));
    expect(rows.length).toBeGreaterThan(2_500);
    expect(rows.at(-1)!.hash).toBe(listed.entries.at(-1)!.hash);
  });
});
