import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LicenseResponseSchema, StatesResponseSchema } from "../../src/contract/envelopes.ts";
import { ProblemSchema } from "../../src/contract/problem.ts";
import { licenseFixture } from "../testing/license-fixture.ts";
import { tempService } from "../testing/temp-service.ts";

let service: Awaited<ReturnType<typeof tempService>>;
let nyAndTx: Record<string, string>;

beforeAll(async () => {
  service = await tempService({
    ny: [licenseFixture({ license: "1268007", business: "DEAD RABBIT TAVERN" })],
    ma: [licenseFixture({ state: "ma", license: "00780-RS-0116", business: "UNION OYSTER HOUSE" })],
  });
  // Covers ny (which has data) and tx (which has none); not ma.
  nyAndTx = (await service.keyFor(["ny", "tx"])).headers;
});
afterAll(() => service.close());

/** The 404 body without its request id, after checking the id matches the header. */
async function unavailable(url: string) {
  const response = await service.app.inject({ url, headers: nyAndTx });
  expect(response.statusCode).toBe(404);
  expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
  const requestId = String(response.headers["x-request-id"]);
  expect(ProblemSchema.parse(response.json()).request_id).toBe(requestId);
  return response.body.replace(`"request_id":"${requestId}"`, "");
}

describe("state scope: a state outside the key or without data is one 404", () => {
  it("answers 404 for a state outside the key's scope and the identical body for an unsupported one", async () => {
    const outOfScope = await unavailable("/v2/search?state=ma&name=oyster"); // data, but not the key's
    const unsupported = await unavailable("/v2/search?state=tx&name=oyster"); // the key's, but no data
    const noSuchState = await unavailable("/v2/search?state=zz&name=oyster");
    expect(unsupported).toBe(outOfScope);
    expect(noSuchState).toBe(outOfScope);
  });

  it("does the same on the license route", async () => {
    const outOfScope = await unavailable("/v2/license/ma/00780-RS-0116");
    expect(await unavailable("/v2/license/tx/1")).toBe(outOfScope);
    expect(await unavailable("/v2/license/nyc/1")).toBe(outOfScope);
  });

  it("checks the state before the other parameters", async () => {
    await unavailable("/v2/search?state=ma&name=a&address=b");
  });

  it("lets a key read the states it covers", async () => {
    const response = await service.app.inject({ url: "/v2/license/ny/1268007", headers: nyAndTx });
    expect(LicenseResponseSchema.parse(response.json()).data?.business).toBe("DEAD RABBIT TAVERN");
  });
});

describe("GET /v2/states: the states this key can read", () => {
  it("lists only the covered states that have data, each with its sources, their dates and coverage", async () => {
    const response = await service.app.inject({ url: "/v2/states", headers: nyAndTx });
    expect(response.statusCode).toBe(200);
    expect(StatesResponseSchema.parse(response.json()).data).toEqual([
      {
        state: "ny",
        name: "New York",
        records: 1,
        sources: [
          {
            id: expect.any(Number),
            agency: "Test Licensing Authority",
            title: "Test license list",
            coverage: "the licenses a test made",
            file: "test-licenses.csv",
            sha256: "sha256-of-test-licenses-ny",
            as_of: "2026-01-15",
            as_of_from: "stated in the file",
            loaded_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/),
            records: 1,
          },
        ],
        // Nothing syncs this state and nothing was refused.
        feeds: [],
        last_refusal: null,
      },
    ]);
  });

  it("lists every state with data for a key scoped to all states", async () => {
    const all = (await service.keyFor(["*"])).headers;
    const data = StatesResponseSchema.parse(
      (await service.app.inject({ url: "/v2/states", headers: all })).json(),
    ).data;
    expect(data.map((s) => s.state)).toEqual(["ma", "ny"]);
  });
});
