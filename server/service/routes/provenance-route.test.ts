import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ProvenanceListResponseSchema,
  ProvenanceResponseSchema,
  StatesResponseSchema,
} from "../../../src/contract/envelopes.ts";
import { LicenseSchema } from "../../../src/contract/license.ts";
import { ProblemSchema } from "../../../src/contract/problem.ts";
import { importSource } from "../../data/import/import-source.ts";
import { nySla } from "../../data/sources/ny-sla/adapter.ts";
import { tempFolder } from "../../testing/adapter-test-helpers.ts";
import { licenseFixture } from "../../testing/license-fixture.ts";
import { nyLists } from "../../testing/ny-lists.ts";
import { tempService } from "../../testing/temp-service.ts";

let service: Awaited<ReturnType<typeof tempService>>;
let headers: Record<string, string>;

beforeAll(async () => {
  service = await tempService({
    ny: [
      licenseFixture({ license: "0012345", business: "LEADING ZERO BAR" }),
      licenseFixture({ license: "AB/12 #3", business: "ODD NUMBER BAR" }),
    ],
    ma: [licenseFixture({ state: "ma", license: "00780-RS-0116", business: "UNION OYSTER HOUSE" })],
  });
  headers = (await service.keyFor(["ny"])).headers;
});
afterAll(() => service.close());

const provenance = (state: string, license: string, auth = headers) =>
  service.app.inject({ url: `/v2/provenance/${state}/${encodeURIComponent(license)}`, headers: auth });

describe("GET /v2/provenance/{state}/{license}: where a license comes from", () => {
  it("names the license's source as /v2/states lists it, and the date that source gives", async () => {
    const response = await provenance("ny", "0012345");
    expect(response.statusCode).toBe(200);
    const { data } = ProvenanceResponseSchema.parse(response.json());
    const states = StatesResponseSchema.parse((await service.app.inject({ url: "/v2/states", headers })).json()).data;
    expect(data).toEqual({ state: "ny", license: "0012345", as_of: "2026-01-15", source: states[0]!.sources[0] });
    expect(data?.source).toMatchObject({ agency: "Test Licensing Authority", file: "test-licenses.csv" });
  });

  it("matches the number exactly, as /v2/license does: leading zeros, and a number holding / and #", async () => {
    expect(ProvenanceResponseSchema.parse((await provenance("ny", "12345")).json())).toEqual({ data: null });
    expect(ProvenanceResponseSchema.parse((await provenance("ny", "AB/12 #3")).json()).data?.license).toBe("AB/12 #3");
    expect(ProvenanceResponseSchema.parse((await provenance("NY", "0012345")).json()).data?.state).toBe("ny");
  });

  it("stays within the key's states, with the same 404 as every route", async () => {
    const response = await provenance("ma", "00780-RS-0116");
    expect(response.statusCode).toBe(404);
    expect(ProblemSchema.parse(response.json()).status).toBe(404);
    expect((await provenance("zz", "1")).statusCode).toBe(404);
  });

  it("needs a key", async () => {
    expect((await provenance("ny", "0012345", {})).statusCode).toBe(401);
  });

  it("stays small: the answer is one source, not the state's list", async () => {
    expect((await provenance("ny", "0012345")).body.length).toBeLessThan(600);
  });
});

describe("GET /v2/provenance/{state}/{license}: a record merged from several lists names the list of each older field", () => {
  let merged: Awaited<ReturnType<typeof tempService>>;
  let auth: Record<string, string>;
  const temp = tempFolder("provenance-fields-");

  beforeAll(async () => {
    merged = await tempService({});
    const files = [
      nyLists.active2016(temp.path("nyc_bars.csv")),
      nyLists.extract2019(temp.path("itoschum_liquor.csv")),
    ];
    await importSource(merged.db, nySla, files, { now: () => new Date("2026-11-22T12:00:00Z") });
    auth = (await merged.keyFor(["ny"])).headers;
  });
  afterAll(async () => {
    await merged.close();
    temp.done();
  });

  const ask = async (url: string) => {
    const response = await merged.app.inject({ url, headers: auth });
    expect(response.statusCode).toBe(200);
    return response.json<unknown>();
  };

  it("the 2019 extract's record, its address, type and description the 2016 list's, with that list's date", async () => {
    const sources = StatesResponseSchema.parse(await ask("/v2/states")).data[0]!.sources;
    const byFile = (file: string) => sources.find((s) => s.file === file)!;
    const list2016 = byFile("nyc_bars.csv");
    expect(list2016.as_of).toBe("2016-01-14");
    const { data } = ProvenanceResponseSchema.parse(await ask("/v2/provenance/ny/1268007"));
    expect(data).toEqual({
      state: "ny",
      license: "1268007",
      as_of: "2019-07-30",
      source: byFile("itoschum_liquor.csv"),
      fields: [
        { field: "address", as_of: "2016-01-14", source: list2016 },
        { field: "type", as_of: "2016-01-14", source: list2016 },
        { field: "description", as_of: "2016-01-14", source: list2016 },
      ],
    });
  });

  it("says nothing of fields where every field is the record's own source's", async () => {
    const { data } = ProvenanceResponseSchema.parse(await ask("/v2/provenance/ny/1275754"));
    expect(data?.source.file).toBe("nyc_bars.csv");
    expect(data).not.toHaveProperty("fields");
  });

  it("the list route says the same, and the license itself stays exactly the contract's object", async () => {
    const list = ProvenanceListResponseSchema.parse(await ask("/v2/provenance/ny?license=1268007&license=1275754"));
    const one = ProvenanceResponseSchema.parse(await ask("/v2/provenance/ny/1268007")).data;
    expect(list.data).toEqual([one, expect.not.objectContaining({ fields: expect.anything() })]);
    const license = (await ask("/v2/license/ny/1268007")) as { data: Record<string, unknown> };
    expect(Object.keys(license.data).sort()).toEqual(Object.keys(LicenseSchema.shape).sort());
    expect(license.data.address).toMatchObject({ line_1: "30 WATER STREET", county: "NEW YORK" });
  });
});
