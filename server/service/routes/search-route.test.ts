import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ProvenanceListResponseSchema,
  SearchResponseSchema,
  SearchWithProvenanceResponseSchema,
} from "../../../src/contract/envelopes.ts";
import { ProblemSchema } from "../../../src/contract/problem.ts";
import { licenseFixture } from "../../testing/license-fixture.ts";
import { tempService } from "../../testing/temp-service.ts";

let service: Awaited<ReturnType<typeof tempService>>;
let headers: Record<string, string>;

const tavern = (i: number) =>
  licenseFixture({
    license: `20000${String(i).padStart(2, "0")}`,
    business: `HARBOR TAVERN ${i}`,
    owner: `OWNER ${i} LLC`,
  });

beforeAll(async () => {
  service = await tempService({
    ny: [
      licenseFixture({
        license: "1268007",
        business: "DEAD RABBIT TAVERN",
        owner: "DRT GROUP LLC",
        address: { line_1: "30 WATER STREET" },
      }),
      licenseFixture({
        license: "1136344",
        business: "P J CLARKE'S",
        owner: "CLARKE'S GROUP LLC, THE",
        address: { line_1: "915 3RD AVE", line_2: "WATER VIEW BUILDING" },
      }),
      licenseFixture({
        license: "1275754",
        business: "TEMPO LIBERO BAR CORP",
        owner: "MARIA RABBITT",
        address: { line_1: "88-08 ROOSEVELT AVE", city: "WATERTOWN" },
      }),
      ...Array.from({ length: 12 }, (_, i) => tavern(i)),
    ],
    ma: [licenseFixture({ state: "ma", license: "00780-RS-0116", business: "UNION OYSTER HOUSE" })],
  });
  headers = (await service.keyFor(["ny", "ma"])).headers;
});
afterAll(() => service.close());

async function search(query: string) {
  return service.app.inject({ url: `/v2/search?${query}`, headers });
}

async function found(query: string) {
  const response = await search(query);
  expect(response.statusCode).toBe(200);
  expect(response.headers["content-type"]).toMatch(/^application\/json/);
  return SearchResponseSchema.parse(response.json()).data;
}

async function problem(query: string, status: number) {
  const response = await search(query);
  expect(response.statusCode).toBe(status);
  expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
  const body = ProblemSchema.parse(response.json());
  expect(body.status).toBe(status);
  return body;
}

describe("GET /v2/search: what it finds", () => {
  it("finds a license by part of its business name, any case", async () => {
    const data = await found("state=ny&name=dead%20rab");
    expect(data.map((l) => l.license)).toEqual(["1268007"]);
  });

  it("finds a license by its owner's name", async () => {
    const data = await found("state=ny&name=drt%20group");
    expect(data.map((l) => l.license)).toEqual(["1268007"]);
  });

  it("name search looks at business and owner both", async () => {
    const data = await found("state=ny&name=rabbit");
    expect(data.map((l) => l.license).sort()).toEqual(["1268007", "1275754"]);
  });

  it("address search matches address line 1 only, not line 2 or the city", async () => {
    const data = await found("state=ny&address=water");
    expect(data.map((l) => l.license)).toEqual(["1268007"]);
  });

  it("returns at most 10 licenses when more match", async () => {
    const data = await found("state=ny&name=harbor%20tavern");
    expect(data).toHaveLength(10);
    expect(data.every((l) => l.business.startsWith("HARBOR TAVERN"))).toBe(true);
  });

  it("returns an empty list when nothing matches", async () => {
    expect(await found("state=ny&name=zzyzx")).toEqual([]);
  });

  it("searches only the state asked for", async () => {
    expect(await found("state=ny&name=oyster")).toEqual([]);
    expect((await found("state=ma&name=oyster")).map((l) => l.license)).toEqual(["00780-RS-0116"]);
  });

  it("accepts the state in upper case", async () => {
    expect((await found("state=NY&name=dead%20rabbit")).map((l) => l.license)).toEqual(["1268007"]);
  });
});

describe("GET /v2/search: the state is required", () => {
  it("is 400 without a state", async () => {
    const body = await problem("name=tavern", 400);
    expect(body.detail).toMatch(/state/);
  });
});

describe("GET /v2/search: exactly one of name and address", () => {
  it("is 400 with both name and address", async () => {
    expect((await problem("state=ny&name=dead&address=water", 400)).detail).toMatch(/not both/);
  });

  it("is 400 with neither", async () => {
    expect((await problem("state=ny", 400)).detail).toMatch(/name .* or an address/);
  });

  it("trims the term, and treats an empty one as absent", async () => {
    expect((await found("state=ny&name=%20%20dead%20rabbit%20&address=%20")).map((l) => l.license)).toEqual([
      "1268007",
    ]);
    await problem("state=ny&name=%20%20", 400);
  });

  it("is 400 for a term over 100 characters", async () => {
    await found(`state=ny&name=${"a".repeat(100)}`);
    expect((await problem(`state=ny&name=${"a".repeat(101)}`, 400)).detail).toMatch(/100 characters/);
  });

  it("is 400 for control characters", async () => {
    expect((await problem("state=ny&name=dead%00rabbit", 400)).detail).toMatch(/control characters/);
    await problem("state=ny&address=30%0Awater", 400);
  });

  it("is 400 when a parameter is repeated", async () => {
    expect((await problem("state=ny&name=dead&name=rabbit", 400)).detail).toMatch(/name once/);
    await problem("state=ny&state=ma&name=dead", 400);
  });
});

describe("GET /v2/search-with-provenance: the search and where each license comes from, in one answer", () => {
  const withProvenance = (query: string) => service.app.inject({ url: `/v2/search-with-provenance?${query}`, headers });

  it.each(["state=ny&name=tavern", "state=ny&name=rabit", "state=ny&address=water", "state=ma&name=oyster"])(
    "%s: the licenses /v2/search gives, in its order, each beside its provenance as the list route gives it",
    async (query) => {
      const response = await withProvenance(query);
      expect(response.statusCode).toBe(200);
      const { licenses, provenance } = SearchWithProvenanceResponseSchema.parse(response.json()).data;
      expect(licenses).toEqual(await found(query));
      expect(licenses.length).toBeGreaterThan(0);
      const state = new URLSearchParams(query).get("state")!;
      const numbers = licenses.map((l) => `license=${encodeURIComponent(l.license)}`).join("&");
      const listed = await service.app.inject({ url: `/v2/provenance/${state}?${numbers}`, headers });
      expect(provenance).toEqual(ProvenanceListResponseSchema.parse(listed.json()).data);
      expect(provenance.every((p, i) => p?.license === licenses[i]!.license && p.source.file !== null)).toBe(true);
    },
  );

  it("answers nothing found as empty lists", async () => {
    const response = await withProvenance("state=ny&name=zzzqqq");
    expect(SearchWithProvenanceResponseSchema.parse(response.json()).data).toEqual({ licenses: [], provenance: [] });
  });

  it("refuses what /v2/search refuses, with the same problem", async () => {
    for (const [query, status] of [
      ["state=ny", 400],
      ["state=ny&name=a&address=b", 400],
      ["state=ny&name=dead&name=rabbit", 400],
      ["name=dead", 400],
      ["state=zz&name=dead", 404],
    ] as const) {
      const response = await withProvenance(query);
      expect(response.statusCode).toBe(status);
      expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(ProblemSchema.parse(response.json()).detail).toBe(
        ProblemSchema.parse((await search(query)).json()).detail,
      );
    }
  });
});
