import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  LicenseListResponseSchema,
  MAX_BATCH,
  ProvenanceListResponseSchema,
  StatesResponseSchema,
} from "../../../src/contract/envelopes.ts";
import { ProblemSchema } from "../../../src/contract/problem.ts";
import { licenseFixture } from "../../testing/license-fixture.ts";
import { tempService } from "../../testing/temp-service.ts";

let service: Awaited<ReturnType<typeof tempService>>;
let headers: Record<string, string>;

beforeAll(async () => {
  service = await tempService({
    ny: [
      licenseFixture({ license: "0012345", business: "LEADING ZERO BAR" }),
      licenseFixture({ license: "12345", business: "NO ZERO BAR" }),
      licenseFixture({ license: "AB/12 #3", business: "ODD NUMBER BAR" }),
    ],
    ma: [licenseFixture({ state: "ma", license: "00780-RS-0116", business: "UNION OYSTER HOUSE" })],
  });
  headers = (await service.keyFor(["ny"])).headers;
});
afterAll(() => service.close());

const query = (numbers: string[]) => numbers.map((n) => `license=${encodeURIComponent(n)}`).join("&");

const ask = (route: "licenses" | "provenance", state: string, numbers: string[], auth = headers) =>
  service.app.inject({ url: `/v2/${route}/${state}?${query(numbers)}`, headers: auth });

async function licenses(numbers: string[]) {
  const response = await ask("licenses", "ny", numbers);
  expect(response.statusCode).toBe(200);
  expect(response.headers["content-type"]).toMatch(/^application\/json/);
  return LicenseListResponseSchema.parse(response.json()).data;
}

async function provenance(numbers: string[]) {
  const response = await ask("provenance", "ny", numbers);
  expect(response.statusCode).toBe(200);
  return ProvenanceListResponseSchema.parse(response.json()).data;
}

describe("GET /v2/licenses/{state}?license=…: a list of numbers, one answer each", () => {
  it("answers each number in the order given, null where the state holds none", async () => {
    const data = await licenses(["12345", "9999999", "0012345"]);
    expect(data.map((l) => l?.business ?? null)).toEqual(["NO ZERO BAR", null, "LEADING ZERO BAR"]);
  });

  it("answers a number given twice twice", async () => {
    const data = await licenses(["0012345", "12345", "0012345"]);
    expect(data.map((l) => l?.license)).toEqual(["0012345", "12345", "0012345"]);
  });

  it("matches each number exactly, as /v2/license does: leading zeros, and a number holding / and #", async () => {
    const data = await licenses(["012345", "AB/12 #3", "AB/12", "0012345 "]);
    expect(data.map((l) => l?.license ?? null)).toEqual([null, "AB/12 #3", null, null]);
  });

  it("serves each license exactly as /v2/license does", async () => {
    const response = await ask("licenses", "ny", ["AB/12 #3", "0012345"]);
    const single = await Promise.all(
      ["AB/12 #3", "0012345"].map((n) =>
        service.app.inject({ url: `/v2/license/ny/${encodeURIComponent(n)}`, headers }),
      ),
    );
    expect(response.json()).toEqual({ data: single.map((r) => r.json<{ data: unknown }>().data) });
  });

  it("reads a query string as a browser's URLSearchParams writes it (a space as +)", async () => {
    const params = new URLSearchParams([
      ["license", "AB/12 #3"],
      ["license", "0012345"],
    ]);
    const response = await service.app.inject({ url: `/v2/licenses/ny?${params}`, headers });
    const { data } = LicenseListResponseSchema.parse(response.json());
    expect(data.map((l) => l?.license)).toEqual(["AB/12 #3", "0012345"]);
  });

  it("takes one number, and up to MAX_BATCH", async () => {
    expect((await licenses(["0012345"])).map((l) => l?.license)).toEqual(["0012345"]);
    const data = await licenses(Array.from({ length: MAX_BATCH }, (_, i) => (i === 99 ? "12345" : `X${i}`)));
    expect(data).toHaveLength(MAX_BATCH);
    expect(data.filter(Boolean).map((l) => l?.license)).toEqual(["12345"]);
  });
});

describe("GET /v2/provenance/{state}?license=…: where each of a list comes from", () => {
  it("gives each number's source as /v2/states lists it, in the order given, null where there is none", async () => {
    const states = StatesResponseSchema.parse((await service.app.inject({ url: "/v2/states", headers })).json()).data;
    const source = states[0]!.sources[0]!;
    expect(await provenance(["AB/12 #3", "12345678", "0012345", "AB/12 #3"])).toEqual([
      { state: "ny", license: "AB/12 #3", as_of: "2026-01-15", source },
      null,
      { state: "ny", license: "0012345", as_of: "2026-01-15", source },
      { state: "ny", license: "AB/12 #3", as_of: "2026-01-15", source },
    ]);
  });

  it("matches each number exactly: leading zeros count", async () => {
    expect((await provenance(["12345", "012345"])).map((p) => p?.license ?? null)).toEqual(["12345", null]);
  });
});

describe.each(["licenses", "provenance"] as const)("GET /v2/%s/{state}: what it refuses", (route) => {
  async function problem(url: string, status: number, auth = headers) {
    const response = await service.app.inject({ url: `/v2/${route}/${url}`, headers: auth });
    expect(response.statusCode).toBe(status);
    expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
    const body = ProblemSchema.parse(response.json());
    expect(body.status).toBe(status);
    return body.detail;
  }

  it("is 400 without a license number, saying how to give one", async () => {
    expect(await problem("ny", 400)).toMatch(/give at least one license number, as license=/);
    expect(await problem("ny?licence=0012345", 400)).toMatch(/at least one/);
  });

  it(`is 400 past ${MAX_BATCH} numbers, saying how many were sent`, async () => {
    const numbers = Array.from({ length: MAX_BATCH + 1 }, (_, i) => `N${i}`);
    expect(await problem(`ny?${query(numbers)}`, 400)).toBe(
      `give at most ${MAX_BATCH} license numbers a request, not ${MAX_BATCH + 1}: send a longer list in parts`,
    );
  });

  it("is 400 for an empty or blank number, naming which", async () => {
    expect(await problem("ny?license=0012345&license=&license=12345", 400)).toMatch(/^license number 2 is empty/);
    expect(await problem("ny?license=%20%20", 400)).toMatch(/^license number 1 is empty/);
  });

  it("stays within the key's states, with the same 404 as every route", async () => {
    expect(await problem(`ma?${query(["00780-RS-0116"])}`, 404)).toMatch(/with this API key/);
    expect(await problem(`zz?${query(["1"])}`, 404)).toMatch(/with this API key/);
    // The state before the list: a key learns nothing of a state it cannot read.
    await problem("ma", 404);
  });

  it("needs a key", async () => {
    expect((await ask(route, "ny", ["0012345"], {})).statusCode).toBe(401);
  });
});

describe("the rate limit", () => {
  it(`counts a request of ${MAX_BATCH} numbers once`, async () => {
    const limited = await tempService(
      { ny: [licenseFixture({ license: "0012345" })] },
      { rateLimit: { perSecond: 0.01, burst: 3 } },
    );
    try {
      const { headers: keyed } = await limited.keyFor(["ny"]);
      const numbers = Array.from({ length: MAX_BATCH }, () => "0012345");
      const status = async (route: string) =>
        (await limited.app.inject({ url: `/v2/${route}/ny?${query(numbers)}`, headers: keyed })).statusCode;
      expect([await status("licenses"), await status("provenance"), await status("licenses")]).toEqual([200, 200, 200]);
      expect(await status("licenses")).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
