import { afterAll, describe, expect, it } from "vitest";
import { nySla } from "../sources/ny-sla/adapter.ts";
import { readAll, tempFolder } from "../../testing/adapter-test-helpers.ts";
import { nyLists } from "../../testing/ny-lists.ts";

const temp = tempFolder("merge-records-");
afterAll(() => temp.done());
const LIST_2016 = nyLists.active2016(temp.path("active-2016.csv"));
const EXTRACT_2019 = nyLists.extract2019(temp.path("extract-2019.csv"));

describe("the merge names the list and date of each field an older list gives", () => {
  it("the 2019 extract's record keeps the 2016 list's address, type and description, each with that list and its date", async () => {
    for (const order of [
      [LIST_2016, EXTRACT_2019],
      [EXTRACT_2019, LIST_2016],
    ]) {
      const { merged } = await readAll(nySla, order);
      const [list2016, extract2019] = [LIST_2016, EXTRACT_2019].map((path) => order.indexOf(path) + 1);
      const rabbit = merged.find((m) => m.record.license === "1268007")!;
      expect(rabbit).toMatchObject({ sourceId: extract2019, asOf: "2019-07-30" });
      expect(rabbit.record.address.line_1).toBe("30 WATER STREET");
      expect(rabbit.fields).toEqual([
        { field: "address", source: list2016, as_of: "2016-01-14" },
        { field: "type", source: list2016, as_of: "2016-01-14" },
        { field: "description", source: list2016, as_of: "2016-01-14" },
      ]);
    }
  });

  it("names no field of a record that is one list's word: listed in 2016 alone, or in the extract alone", async () => {
    const { merged } = await readAll(nySla, [LIST_2016, EXTRACT_2019]);
    const of = (license: string) => merged.find((m) => m.record.license === license)!;
    // 1275754: in 2016 only (no trade name, so the extract left it out).
    expect(of("1275754")).toMatchObject({ sourceId: 1, asOf: "2016-01-14" });
    expect(of("1275754").fields).toBeUndefined();
    // 1300001: first issued in 2019; no list gives its address, and none is made up.
    expect(of("1300001")).toMatchObject({ sourceId: 2, asOf: "2019-07-30" });
    expect(of("1300001").fields).toBeUndefined();
    expect(of("1300001").record.address.line_1).toBe("");
  });

  it("takes a field from the newest list that gives it: an application of 2018 over the 2016 list", async () => {
    const received2018 = nyLists.applications(temp.path("applications-2018.csv"), "03/01/2018", ["1243517"]);
    const { merged } = await readAll(nySla, [LIST_2016, received2018, EXTRACT_2019]);
    const radish = merged.find((m) => m.record.license === "1243517")!;
    expect(radish).toMatchObject({ sourceId: 3, asOf: "2019-07-30" });
    expect(radish.record.address.line_1).toBe("19 ORCHARD ST");
    expect(radish.fields).toEqual([
      { field: "address", source: 2, as_of: "2018-03-01" },
      { field: "type", source: 2, as_of: "2018-03-01" },
      { field: "description", source: 2, as_of: "2018-03-01" },
    ]);
  });

  it("names no field where the newest source gives them all: an application received after the extract", async () => {
    const received2020 = nyLists.applications(temp.path("applications-2020.csv"), "02/04/2020", ["1243517"]);
    const { merged } = await readAll(nySla, [LIST_2016, EXTRACT_2019, received2020]);
    const radish = merged.find((m) => m.record.license === "1243517")!;
    expect(radish).toMatchObject({ sourceId: 3, asOf: "2020-02-04" });
    expect(radish.fields).toBeUndefined();
  });
});
