import { describe, expect, it } from "vitest";
import { toContractRecord } from "./contract-gate.ts";
import type { SourceRecord } from "../sources/source-adapter.ts";

const source: SourceRecord = {
  license: "0012345",
  business: "SOME BAR",
  owner: "SOME BAR LLC",
  phone: null,
  state: "ny",
  status: "active",
  address: { line_1: "1 MAIN ST", line_2: null, city: "BROOKLYN", county: "KINGS", state: "NY", zip: "11201" },
  dates: { effective: "2015-01-01", expires: "2016-12-31", issued_original: "2010-01-02", issued_latest: null },
  details: { class: "252", description: "ON-PREMISES LIQUOR", type: "OP" },
};

describe("toContractRecord", () => {
  it("files the dates under the license's state, as the contract shapes them", () => {
    expect(toContractRecord(source)).toEqual({
      ...source,
      dates: {
        ny: { effective: "2015-01-01", expires: "2016-12-31", issued_original: "2010-01-02", issued_latest: null },
      },
    });
  });

  it("keeps a date the state does not publish as null, never inventing one", () => {
    const sparse = { effective: null, expires: null, issued_original: null, issued_latest: null };
    expect(toContractRecord({ ...source, dates: sparse }).dates).toEqual({ ny: sparse });
  });

  it("turns anything else the contract refuses into a skip reason naming the field", () => {
    expect(() => toContractRecord({ ...source, address: { ...source.address, state: "New York" } })).toThrow(
      /^does not fit the contract: address\.state/,
    );
  });
});
