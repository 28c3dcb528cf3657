import { readFileSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LicenseHistoryResponseSchema, LicenseResponseSchema } from "../../../src/contract/envelopes.ts";
import { ProblemSchema } from "../../../src/contract/problem.ts";
import { sharedData, tempFolder } from "../../testing/adapter-test-helpers.ts";
import { importSource } from "../../data/import/import-source.ts";
import { nySla } from "../../data/sources/ny-sla/adapter.ts";
import { licenseFixture } from "../../testing/license-fixture.ts";
import { tempService } from "../../testing/temp-service.ts";

const temp = tempFolder();
let service: Awaited<ReturnType<typeof tempService>>;
let headers: Record<string, string>;

/** A hand-made SLA active list: the real file's header, and a row per license. */
function activeList(name: string, rows: { license: string; owner: string; dba?: string }[]): string {
  const header = readFileSync(sharedData("ny/nyc_bars.csv"), "utf8").split(/\r?\n/, 1)[0]!;
  const lines = rows.map(
    (r) =>
      `${r.license},"ON-PREMISES LIQUOR",252,"OP","New York City",1,"KINGS","${r.owner}","${r.dba ?? "CORNER BAR"}","1 MAIN ST","","BROOKLYN","NY",11201,1,"03/01/2020","03/01/2020","12/31/2027",,,`,
  );
  const path = temp.path(name);
  writeFileSync(path, [header, ...lines].join("\n") + "\n");
  return path;
}

beforeAll(async () => {
  service = await tempService({ ma: [licenseFixture({ state: "ma", license: "00780-RS-0116" })] });
  const older = activeList("active-2024.csv", [
    { license: "9000001", owner: "SMITH LLC" },
    { license: "9000002", owner: "GONE LLC", dba: "GONE BAR" },
  ]);
  const newer = activeList("active-2025.csv", [
    { license: "9000001", owner: "JONES LLC" },
    { license: "9000003", owner: "NEW LLC", dba: "NEW BAR" },
  ]);
  // The newer list first: the older, imported after it, still goes before it in time.
  await importSource(service.db, nySla, [newer], { asOf: "2025-01-15" });
  await importSource(service.db, nySla, [older], { asOf: "2024-01-15" });
  headers = (await service.keyFor(["ny"])).headers;
});
afterAll(async () => {
  await service.close();
  temp.done();
});

const get = (path: string, auth = headers) => service.app.inject({ url: path, headers: auth });
const history = async (state: string, license: string) => {
  const response = await get(`/v2/history/${state}/${encodeURIComponent(license)}`);
  expect(response.statusCode).toBe(200);
  return LicenseHistoryResponseSchema.parse(response.json()).data;
};

describe("GET /v2/history/{state}/{license}: what the state's files said of a license over time", () => {
  it("gives each change newest first, between the dates of the two lists that show it, whatever order they were imported in", async () => {
    const data = await history("ny", "9000001");
    expect(data?.entries.map((e) => [e.event, e.since, e.date, e.changes.find((c) => c.field === "owner")])).toEqual([
      [
        "changed",
        "2024-01-15",
        "2025-01-15",
        { field: "owner", license_type: null, from: "SMITH LLC", to: "JONES LLC" },
      ],
      ["first_seen", null, "2024-01-15", undefined],
    ]);
    // Only what changed: the business name and the address are the same in both lists.
    expect(data?.entries[0]!.changes.map((c) => c.field)).toEqual(["owner"]);
    expect(data?.listings).toEqual([expect.objectContaining({ from: "2024-01-15", to: "2025-01-15", lists: 2 })]);
  });

  it("names each entry's source as /v2/states lists it", async () => {
    const data = await history("ny", "9000001");
    const byId = new Map(data!.sources.map((s) => [s.id, s]));
    expect(data!.entries.map((e) => byId.get(e.source)?.file)).toEqual(["active-2025.csv", "active-2024.csv"]);
    expect(data!.sources[0]).toMatchObject({ agency: "New York State Liquor Authority" });
  });

  it("keeps a license the newest list leaves out: no longer listed as of that list, though /v2/license has no record", async () => {
    const data = await history("ny", "9000002");
    expect(data?.entries.map((e) => [e.event, e.since, e.date])).toEqual([
      ["no_longer_listed", "2024-01-15", "2025-01-15"],
      ["first_seen", null, "2024-01-15"],
    ]);
    // What it was last listed as, since no record says it any more.
    expect(data?.entries[0]!.changes).toContainEqual({
      field: "business",
      license_type: null,
      from: "GONE BAR",
      to: null,
    });
    expect(LicenseResponseSchema.parse((await get("/v2/license/ny/9000002")).json()).data).toBeNull();
  });

  it("says when a license was first listed after an earlier list that did not name it", async () => {
    const data = await history("ny", "9000003");
    expect(data?.entries.map((e) => [e.event, e.since, e.date])).toEqual([["first_seen", "2024-01-15", "2025-01-15"]]);
  });

  it("answers null for a number no source named, matched exactly (leading zeros count)", async () => {
    expect(await history("ny", "9999999")).toBeNull();
    expect(await history("ny", "09000001")).toBeNull();
    expect((await history("NY", "9000001"))?.state).toBe("ny");
  });

  it("stays within the key's states, with the same 404 as every route, and needs a key", async () => {
    for (const path of ["/v2/history/ma/00780-RS-0116", "/v2/history/zz/1"]) {
      const response = await get(path);
      expect(response.statusCode).toBe(404);
      expect(ProblemSchema.parse(response.json()).detail).toMatch(/state/i);
    }
    expect((await get("/v2/history/ny/9000001", {})).statusCode).toBe(401);
  });

  it("is the same after the same files are imported again: no entry twice", async () => {
    const before = await history("ny", "9000001");
    await importSource(service.db, nySla, [temp.path("active-2024.csv"), temp.path("active-2025.csv")], {
      asOf: "2024-01-15",
    });
    expect(await history("ny", "9000001")).toEqual(before);
  });
});
