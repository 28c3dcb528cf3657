import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LicenseResponseSchema } from "../../../src/contract/envelopes.ts";
import { licenseFixture } from "../../testing/license-fixture.ts";
import { tempService } from "../../testing/temp-service.ts";

let service: Awaited<ReturnType<typeof tempService>>;
let headers: Record<string, string>;

beforeAll(async () => {
  service = await tempService({
    ny: [
      licenseFixture({ license: "0012345", business: "LEADING ZERO BAR", phone: "(212) 555-0100" }),
      licenseFixture({ license: "12345", business: "NO ZERO BAR" }),
      licenseFixture({ license: "AB/12 #3", business: "ODD NUMBER BAR", address: { line_2: "2ND FLOOR" } }),
    ],
  });
  headers = (await service.keyFor(["ny"])).headers;
});
afterAll(() => service.close());

async function fetchLicense(state: string, license: string) {
  const response = await service.app.inject({ url: `/v2/license/${state}/${encodeURIComponent(license)}`, headers });
  expect(response.statusCode).toBe(200);
  return LicenseResponseSchema.parse(response.json()).data;
}

describe("GET /v2/license/{state}/{license}", () => {
  it("matches the number exactly, leading zeros included", async () => {
    expect((await fetchLicense("ny", "0012345"))?.business).toBe("LEADING ZERO BAR");
    expect((await fetchLicense("ny", "12345"))?.business).toBe("NO ZERO BAR");
    expect(await fetchLicense("ny", "012345")).toBeNull();
  });

  it("answers 200 with data null for an unknown number", async () => {
    const response = await service.app.inject({ url: "/v2/license/ny/9999999", headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: null });
  });

  it("keeps a number with a slash, a space and a hash whole", async () => {
    expect((await fetchLicense("ny", "AB/12 #3"))?.license).toBe("AB/12 #3");
  });

  it("accepts the state in upper case", async () => {
    expect((await fetchLicense("NY", "0012345"))?.license).toBe("0012345");
  });
});

describe("the license object: exactly the contract's fields and shapes", () => {
  it("has exactly the contract's fields, in the contract's shapes", async () => {
    const license = (await fetchLicense("ny", "12345"))!;
    expect(Object.keys(license).sort()).toEqual(
      [
        "address",
        "business",
        "dates",
        "details",
        "license",
        "object",
        "owner",
        "phone",
        "state",
        "status",
        "updated_at",
      ].sort(),
    );
    expect(license.object).toBe("license");
    expect(license.state).toBe("ny");
    expect(license.address.state).toBe("NY");
    expect(license.phone).toBeNull();
    expect(license.address.line_2).toBeNull();
    expect(license.updated_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/);
    expect(Object.keys(license.dates)).toEqual(["ny"]);
  });

  it("keeps a phone and a second address line when the record has them", async () => {
    expect((await fetchLicense("ny", "0012345"))?.phone).toBe("(212) 555-0100");
    expect((await fetchLicense("ny", "AB/12 #3"))?.address.line_2).toBe("2ND FLOOR");
  });
});
