import { describe, expect, it } from "vitest";
import { LicenseSchema } from "../../src/contract/license.ts";
import { surelyFits, toContractRecord, withDatesKeyed } from "./contract-gate.ts";
import type { SourceRecord } from "./source-adapter.ts";

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

describe("surelyFits, the contract check written out for speed", () => {
  const ANY_TIME = "1970-01-01 00:00:00.000000";
  const zodTakes = (record: SourceRecord) =>
    LicenseSchema.safeParse({ object: "license", ...withDatesKeyed(record), updated_at: ANY_TIME }).success;

  // A value for every kind of check the contract makes, and every kind of wrong type.
  const VALUES: unknown[] = [
    ...[undefined, null, 0, 1, true, [], ["a"], {}, { a: 1 }],
    ...["", " ", "x", "ab", "AB", "Ab", "abc", "ABC", "New York", "12345", "0012345", "2024-01-31", "2024-1-31"],
    ...["01/31/2024", "2024-01-31T00:00:00Z", " 2024-01-31", "1970-01-01 00:00:00.000000", "__proto__"],
  ];

  /** Every path of a record: its fields, and the fields of its nested objects. */
  function paths(value: object, prefix: string[] = []): string[][] {
    return Object.entries(value).flatMap(([key, v]) => {
      const path = [...prefix, key];
      return v !== null && typeof v === "object" ? [path, ...paths(v as object, path)] : [path];
    });
  }

  function withValue(record: SourceRecord, path: string[], value: unknown): SourceRecord {
    const copy = structuredClone(record) as unknown as Record<string, unknown>;
    let at = copy;
    for (const key of path.slice(0, -1)) at = at[key] as Record<string, unknown>;
    if (value === undefined) delete at[path.at(-1)!];
    else at[path.at(-1)!] = structuredClone(value);
    return copy as unknown as SourceRecord;
  }

  /** The schema's fields, as paths of a source record (dates unkeyed; object and updated_at are the store's). */
  function schemaPaths(schema: unknown, prefix: string[] = []): string[][] {
    const def = (schema as { _zod: { def: Record<string, unknown> } })._zod.def;
    if (def.type === "nullable") return schemaPaths(def.innerType, prefix);
    if (def.type === "record") return schemaPaths(def.valueType, prefix);
    if (def.type !== "object") return [];
    return Object.entries(def.shape as Record<string, unknown>)
      .filter(([key]) => prefix.length > 0 || (key !== "object" && key !== "updated_at"))
      .flatMap(([key, field]) => {
        const path = [...prefix, key];
        const inner = schemaPaths(field, path);
        return inner.length ? [path, ...inner] : [path];
      });
  }

  const sparse = {
    ...source,
    phone: "212-555-0100",
    dates: { effective: null, expires: null, issued_original: null, issued_latest: null },
    details: { class: null, description: null, type: "" },
  };

  it("takes the records the importers make, so that zod runs only for a refusal's reason", () => {
    for (const record of [source, sparse]) {
      expect(zodTakes(record)).toBe(true);
      expect(surelyFits(record)).toBe(true);
    }
  });

  it("knows every field of the contract (a new one must be checked here, and added to the records above)", () => {
    const key = (path: string[]) => path.join(".");
    expect(paths(source).map(key).sort()).toEqual(schemaPaths(LicenseSchema).map(key).sort());
  });

  it("never takes a record zod refuses, whatever any field holds", () => {
    const wrong: string[] = [];
    for (const record of [source, sparse]) {
      for (const path of paths(record)) {
        for (const value of VALUES) {
          const changed = withValue(record, path, value);
          if (surelyFits(changed) && !zodTakes(changed)) wrong.push(`${path.join(".")} = ${JSON.stringify(value)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("sends a refused record to zod, which names the field", () => {
    const noType = withValue(source, ["details", "type"], null);
    expect(surelyFits(noType)).toBe(false);
    expect(() => toContractRecord(noType)).toThrow(/^does not fit the contract: details\.type/);
  });
});
