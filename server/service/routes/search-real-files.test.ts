import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LicenseResponseSchema, SearchResponseSchema } from "../../../src/contract/envelopes.ts";
import { sharedData } from "../../testing/adapter-test-helpers.ts";
import { gaDor } from "../../data/sources/ga-dor/adapter.ts";
import { importSource } from "../../data/import/import-source.ts";
import { njAbc } from "../../data/sources/nj-abc/adapter.ts";
import { nySla } from "../../data/sources/ny-sla/adapter.ts";
import { tempService } from "../../testing/temp-service.ts";

// Issue 27 on the agencies' own files, read where they are: the searches a clerk types that found
// nothing, or put the license they meant below others.
let service: Awaited<ReturnType<typeof tempService>>;
let headers: Record<string, string>;

beforeAll(async () => {
  service = await tempService({});
  await importSource(service.db, njAbc, [sharedData("nj/nj_retail_licensees_april2026.xlsx")]);
  await importSource(service.db, nySla, [sharedData("ny/nyc_bars.csv")]);
  await importSource(service.db, gaDor, [sharedData("ga/liquor_licenses.csv")]);
  headers = (await service.keyFor(["nj", "ny", "ga"])).headers;
}, 90_000);
afterAll(() => service.close());

async function found(state: string, name: string) {
  const response = await service.app.inject({
    url: `/v2/search?state=${state}&name=${encodeURIComponent(name)}`,
    headers,
  });
  expect(response.statusCode).toBe(200);
  return SearchResponseSchema.parse(response.json()).data;
}

describe("GET /v2/search on the real lists", () => {
  it("puts BLACK CAT TAVERN first for “blak cat” in New Jersey, though BLAK is a word there", async () => {
    // BLAK OPS OF BRUNSWICK LLC holds "blak", and no record holds it with "cat": taken only as typed, nothing.
    const [first] = await found("nj", "blak cat");
    expect(first).toMatchObject({ license: "0101-33-005-003", business: "BLACK CAT TAVERN" });
  });

  it("puts DEAD RABBIT TAVERN first for “rabbit dead” in New York, as for “dead rabbit”", async () => {
    const reversed = await found("ny", "rabbit dead");
    expect(reversed[0]).toMatchObject({ license: "1268007", business: "DEAD RABBIT TAVERN" });
    expect(reversed.map((l) => l.license)).toEqual((await found("ny", "dead rabbit")).map((l) => l.license));
  });

  it("puts a Georgia license first for its name (the DOR's statewide list)", async () => {
    // 28585 40 WATT CLUB (Athens); 1647 CLERMONT LOUNGE (Atlanta); 2 MARIETTA DINER, whose city is a word of many names.
    expect((await found("ga", "40 watt club"))[0]).toMatchObject({ license: "28585", business: "40 WATT CLUB" });
    expect((await found("ga", "clermont lounge"))[0]).toMatchObject({ license: "1647", business: "CLERMONT LOUNGE" });
    expect((await found("ga", "marietta diner"))[0]).toMatchObject({ license: "2", business: "MARIETTA DINER" });
  });

  it("serves a Georgia license its list gives both statuses as that, never as active", async () => {
    const response = await service.app.inject({ url: "/v2/license/ga/70062", headers });
    expect(LicenseResponseSchema.parse(response.json()).data).toMatchObject({
      business: "PIG N WHISTLE PACKAGE STORE",
      status: "listed both active and inactive",
    });
  });
});
