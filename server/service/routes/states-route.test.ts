import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StatesResponseSchema } from "../../../src/contract/envelopes.ts";
import { importSource } from "../../data/import/import-source.ts";
import { dcAbra } from "../../data/sources/dc-abra/adapter.ts";
import { kyAbc } from "../../data/sources/ky-abc/adapter.ts";
import { miMlcc } from "../../data/sources/mi-mlcc/adapter.ts";
import { paPlcb } from "../../data/sources/pa-plcb/adapter.ts";
import { txCpa } from "../../data/sources/tx-cpa/adapter.ts";
import { waWslcb } from "../../data/sources/wa-wslcb/adapter.ts";
import { sharedData } from "../../testing/adapter-test-helpers.ts";
import { licenseFixture } from "../../testing/license-fixture.ts";
import { tempService } from "../../testing/temp-service.ts";

// The agencies' own files, imported as `npm run import` does: the kind is read off the words their importers write.
let service: Awaited<ReturnType<typeof tempService>>;

beforeAll(async () => {
  service = await tempService({ ny: [licenseFixture({ license: "1268007" })] });
  await importSource(service.db, txCpa, [sharedData("tx/Mixed_Beverage_Gross_Receipts_20260125.csv")]);
  await importSource(service.db, waWslcb, [sharedData("wa/wslcb_data.db")]);
  await importSource(service.db, paPlcb, [sharedData("pa/ALL_PLCB_geocoded.csv")]);
  await importSource(service.db, kyAbc, [sharedData("ky/ActiveLicenses.csv")]);
  await importSource(service.db, miMlcc, [sharedData("mi/Liquor_Licenses.csv")]);
  await importSource(service.db, dcAbra, [sharedData("dc/DistrictABCLicenseeList842016.xls")]);
}, 90_000);
afterAll(() => service.close());

async function states(scope: string[]) {
  const { headers } = await service.keyFor(scope);
  const response = await service.app.inject({ url: "/v2/states", headers });
  expect(response.statusCode).toBe(200);
  return response.json<{ data: Record<string, unknown>[] }>();
}

describe("GET /v2/states: what backs each state", () => {
  it("says which states are not a license roster, which cover part of the state, and which are statewide", async () => {
    const { data } = StatesResponseSchema.parse(await states(["*"]));
    expect(Object.fromEntries(data.map((s) => [s.state, s.kind ?? "not said"]))).toEqual({
      dc: "statewide_roster",
      ky: "part_of_state",
      mi: "part_of_state",
      ny: "not said",
      pa: "part_of_state",
      tx: "not_a_roster",
      wa: "not_a_roster",
    });
  });

  it("leaves the kind out where the sources' words do not tell, as a service without it would", async () => {
    const [ny] = (await states(["ny"])).data;
    expect(ny).not.toHaveProperty("kind");
  });
});
