import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProvenanceResponseSchema, StatesResponseSchema } from "../../../src/contract/envelopes.ts";
import { ProblemSchema } from "../../../src/contract/problem.ts";
import { licenseFixture } from "../../testing/license-fixture.ts";
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
