import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Provenance, StateCoverage } from "../contract/envelopes.ts";
import type { License } from "../contract/license.ts";
import { givenProblem } from "../contract/row-verdict.ts";
import { stateCodeOf } from "../contract/states.ts";
import type { ListRow } from "../shared/list-input.ts";
import { verifyList, type RowResult, type VerifyProgress } from "./verify-list.ts";

// The service, played from a table of licenses per state: our batch extension, or only the contract.
const TODAY = "2026-11-22";

function license(state: string, number: string, business: string, extra: Partial<License> = {}): License {
  return {
    object: "license",
    license: number,
    business,
    owner: `${business} LLC`,
    state,
    phone: null,
    status: "active",
    address: { line_1: "1 MAIN ST", line_2: null, city: "TOWN", county: "", state: state.toUpperCase(), zip: "00000" },
    dates: { [state]: { effective: "2026-01-01", expires: "2027-12-31", issued_original: null, issued_latest: null } },
    details: { class: null, description: null, type: "X" },
    updated_at: "2026-11-01 00:00:00.000000",
    ...extra,
  }; // the state's code, as tests write it, is one of the contract's
}

const HELD: Record<string, License[]> = {
  ny: [
    license("ny", "0012345", "WHITE HORSE"),
    license("ny", "1268007", "DEAD RABBIT TAVERN", {
      dates: { ny: { effective: null, expires: "2016-12-31", issued_original: null, issued_latest: null } },
    }),
    license("ny", "2000001", "UNION SQUARE CAFE", { address: { ...address("ny"), line_1: "21 E 16TH ST" } }),
    license("ny", "2000002", "UNION SQUARE CAFE", { address: { ...address("ny"), line_1: "101 E 19TH ST" } }),
  ],
  nj: [license("nj", "0101-33-005-003", "BOARDWALK HALL")],
};

function address(state: string) {
  return { line_1: "", line_2: null, city: "TOWN", county: "", state: state.toUpperCase(), zip: "00000" };
}

const COVERAGE: StateCoverage[] = ["ny", "nj"].map((state) => ({
  state: state,
  name: state,
  records: HELD[state]!.length,
  sources: [
    {
      id: 1,
      agency: `${state.toUpperCase()} agency`,
      title: "list",
      coverage: `${state.toUpperCase()} test licenses`,
      file: null,
      sha256: null,
      as_of: "2026-11-01",
      as_of_from: "stated in the file",
      loaded_at: "2026-11-02 00:00:00.000000",
      records: HELD[state]!.length,
    },
  ],
}));

let batch: boolean;
let requests: string[];
let limited: number;
let times: number[];

function find(state: string, number: string) {
  return HELD[state]?.find((l) => l.license === number) ?? null;
}

function provenance(state: string, l: License | null): Provenance | null {
  return (
    l && {
      state: state,
      license: l.license,
      as_of: "2026-11-01",
      source: COVERAGE[0]!.sources[0]!,
    }
  );
}

beforeEach(() => {
  batch = true;
  limited = 0;
  requests = [];
  times = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (path: string) => {
      requests.push(path);
      times.push(performance.now());
      const url = new URL(path, "http://app");
      const notFound = () => Response.json({ type: "about:blank", title: "Not Found", status: 404 }, { status: 404 });
      if (limited > 0) {
        limited -= 1;
        return Response.json(
          { title: "Too Many Requests", status: 429 },
          { status: 429, headers: { "retry-after": "1" } },
        );
      }
      if (url.pathname === "/v2/search") {
        const state = url.searchParams.get("state")!;
        const name = url.searchParams.get("name")!.toLowerCase();
        return Response.json({ data: (HELD[state] ?? []).filter((l) => l.business.toLowerCase().includes(name)) });
      }
      const [, , route, state = "", number] = url.pathname.split("/").map(decodeURIComponent);
      if (!(state in HELD)) return notFound();
      if (route === "licenses" || route === "provenance") {
        if (!batch) return notFound();
        const asked = url.searchParams.getAll("license");
        const found = asked.map((n) => find(state, n));
        return Response.json({ data: route === "licenses" ? found : found.map((l) => provenance(state, l)) });
      }
      if (route === "license") return Response.json({ data: find(state, number!) });
      return notFound();
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

let rowNumber = 0;
/** A list's row as reading it gives it: on the next line, its problem said as the list's reading says it. */
function row(stateGiven: string, number: string, business = "", addressGiven = ""): ListRow {
  const given = { line: ++rowNumber, state: stateGiven, license: number, business, address: addressGiven };
  return {
    line: given.line,
    stateGiven,
    state: stateCodeOf(stateGiven),
    license: number,
    business,
    address: addressGiven,
    read: [],
    problem: givenProblem(given),
  };
}

async function verify(rows: ListRow[], coverage: StateCoverage[] | null = COVERAGE) {
  const progress: VerifyProgress[] = [];
  const results = await verifyList(rows, { today: TODAY, coverage, onProgress: (p) => progress.push(p) });
  return { results, progress };
}

const words = (r: RowResult) => [r.verdict, r.reason];

describe("a list checked through the batch extension", () => {
  beforeEach(() => (rowNumber = 0));

  it("matches numbers exactly and gives each row the verdict its record means today, in the list's order", async () => {
    const { results, progress } = await verify([row("ny", "1268007"), row("NY", "0012345"), row("ny", "7777777")]);
    expect(results.map((r) => [r.given.line, r.verdict, r.matched])).toEqual([
      [1, "expired", "1268007"],
      [2, "valid", "0012345"],
      [3, "not found", ""],
    ]);
    expect(results[1]).toMatchObject({ business: "WHITE HORSE", source: "NY agency", asOf: "2026-11-01" });
    expect(results[2]!.reason).toMatch(
      /^Not in our New York data, which covers NY test licenses.*does not mean the business is unlicensed/,
    );
    // One request for the licenses and one for their sources, whatever the count.
    expect(requests.filter((p) => p.startsWith("/v2/licenses/ny"))).toHaveLength(1);
    expect(requests.filter((p) => p.startsWith("/v2/provenance/ny"))).toHaveLength(1);
    expect(progress.at(-1)!.done).toBe(3);
  });

  it("offers the number a clerk probably meant, as check and never valid: NJ without dashes or padding, stripped zeros", async () => {
    const { results } = await verify([
      row("nj", "0101-33-5-3"),
      row("nj", "0101330050003"),
      row("nj", "0101 33 005 003"),
      row("ny", "12345"),
    ]);
    for (const r of results.slice(0, 3)) {
      expect(words(r)).toEqual(["check", "Not found as written. Did you mean 0101-33-005-003 (BOARDWALK HALL)?"]);
    }
    expect(words(results[3]!)).toEqual(["check", "Not found as written. Did you mean 0012345 (WHITE HORSE)?"]);
  });

  it("says check when the number belongs to another business, and keeps what its record says", async () => {
    const { results } = await verify([
      row("ny", "0012345", "Black Cat Tavern"),
      row("ny", "0012345", "White Horse LLC"),
    ]);
    expect(words(results[0]!)).toEqual([
      "check",
      "Number belongs to WHITE HORSE, not Black Cat Tavern. Its record: valid. Also on line 2.",
    ]);
    expect(results[1]!.verdict).toBe("valid");
  });

  it("searches a row without a number by its name: one match gives its verdict, several a check with the candidates", async () => {
    const { results } = await verify([
      row("ny", "", "Dead Rabbit Tavern"),
      row("ny", "", "Union Square Cafe"),
      row("ny", "", "Union Square Cafe", "101 E 19th St"),
      row("ny", "", "Nobody Here"),
    ]);
    expect(results[0]).toMatchObject({ verdict: "expired", matched: "1268007" });
    expect(results[0]!.reason).toMatch(/^Matched by name\. Expired on December 31, 2016/);
    expect(results[1]!.verdict).toBe("check");
    expect(results[1]!.reason).toContain(
      "2 licenses match this name: 2000001 (UNION SQUARE CAFE, 21 E 16TH ST); 2000002",
    );
    expect(results[2]).toMatchObject({ verdict: "valid", matched: "2000002" });
    expect(results[3]!.verdict).toBe("not found");
  });

  it("checks a number listed twice once, and reports it on each row, by the lines of the list", async () => {
    const { results } = await verify([row("ny", "0012345"), row("nj", "0101-33-005-003"), row("ny", "0012345")]);
    expect(results.map((r) => [r.verdict, r.reason.match(/Also on line .*$/)?.[0] ?? null])).toEqual([
      ["valid", "Also on line 3."],
      ["valid", null],
      ["valid", "Also on line 1."],
    ]);
    expect(requests.filter((p) => p.startsWith("/v2/licenses/ny"))).toEqual(["/v2/licenses/ny?license=0012345"]);
  });

  it("answers rows it cannot ask about, and states outside the key, without dropping any", async () => {
    const { results } = await verify([
      row("Texas", "123"),
      row("XX", "123"),
      row("ny", ""),
      row("%%%%", ""),
      row("ny", "0012345"),
    ]);
    expect(results.map(words)).toEqual([
      ["not covered", "Texas is not covered: License Lookup has no Texas records for your team."],
      ["check", "Unknown state “XX”: write a code such as NY or a name such as New York."],
      ["check", "No license number and no business name."],
      ["check", "Not a list row: expected a state and a license number, separated by a comma or a tab."],
      ["valid", expect.stringContaining("In force")],
    ]);
  });
});

describe("against a service with only the contract", () => {
  beforeEach(() => {
    rowNumber = 0;
    batch = false;
  });

  it("asks one license at a time, says so, and still answers every row", async () => {
    const { results, progress } = await verify([row("ny", "0012345"), row("ny", "1268007"), row("tx", "1")], null);
    // Without the data's date, a passed expiry may have been renewed since: check, never expired.
    expect(results.map((r) => r.verdict)).toEqual(["valid", "check", "not covered"]);
    expect(results[1]!.reason).toContain("our data’s date is not given: it may have been renewed");
    expect(results[0]!.asOf).toBe("");
    expect(requests).toContain("/v2/license/ny/1268007");
    expect(progress.at(-1)!.oneByOne).toBe(true);
  });

  it("waits out a 429 for as long as the service asks, without failing a row", async () => {
    limited = 1;
    const { results, progress } = await verify([row("ny", "0012345")], null);
    expect(results[0]!.verdict).toBe("valid");
    expect(progress.some((p) => p.waiting === 1)).toBe(true);
    // Asked again only once the second the service asked for had passed.
    const asked = requests.flatMap((path, i) => (path === requests[0] ? [times[i]!] : []));
    expect(asked).toHaveLength(2);
    expect(asked[1]! - asked[0]!).toBeGreaterThanOrEqual(990);
  });
});
