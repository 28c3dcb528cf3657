import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useLocation } from "react-router";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { CoverageKind, Source, StateCoverage } from "../contract/envelopes.ts";
import { renderRoutes } from "../shared/render-routes.tsx";
import { DataPage } from "./data-page.tsx";
// The page loads the atlas after it opens: loaded here once, the map draws as soon as the page asks for it.
import "us-atlas/states-albers-10m.json";

let nextId = 1;
function source(agency: string, coverage: string, as_of: string | null, records: number, extra: Partial<Source> = {}) {
  return {
    id: nextId++,
    agency,
    title: "Licenses",
    coverage,
    file: "list.csv",
    sha256: "0".repeat(64),
    as_of,
    as_of_from: as_of ? "stated in the file" : "not given",
    loaded_at: "2026-11-02 08:00:00.000000",
    records,
    ...extra,
  } satisfies Source;
}

const PLCB = "Pennsylvania Liquor Control Board";
const SLA = "New York State Liquor Authority";
const ABRA = "District of Columbia Alcoholic Beverage Regulation Administration";

// Against a clock at November 22, 2026: one state in each band the map shades.
const COVERAGE: StateCoverage[] = [
  {
    state: "ma",
    name: "Massachusetts",
    records: 12471,
    sources: [source("Massachusetts ABCC", "active retail licenses, statewide", "2026-03-20", 12471)],
  },
  {
    state: "pa",
    name: "Pennsylvania",
    records: 2500,
    sources: [
      source(PLCB, "Philadelphia County only", "2025-05-01", 1500, { title: "PHL PLCB geocoded" }),
      source(PLCB, "Allegheny County only", "2025-05-14", 1000, { title: "ALL PLCB geocoded" }),
    ],
  },
  {
    state: "ky",
    name: "Kentucky",
    records: 800,
    sources: [source("Kentucky ABC", "Fayette County only", "2023-10-11", 800)],
  },
  {
    state: "ny",
    name: "New York",
    records: 8327,
    sources: [
      source(SLA, "New York City on-premises liquor licenses only", "2016-01-14", 6651, {
        as_of_from: "the newest date in the file",
      }),
      source(SLA, "applications received 2019-10-25 to 2020-02-04, statewide: not yet licensed", "2020-02-04", 1676),
    ],
  },
  {
    state: "dc",
    name: "District of Columbia",
    records: 1926,
    sources: [
      source(ABRA, "ABC licenses of every kind, District-wide", "2015-07-07", 0),
      source(ABRA, "ABC licenses of every kind, District-wide", "2016-08-04", 1926),
    ],
  },
  {
    state: "tx",
    name: "Texas",
    records: 40,
    sources: [source("Texas Comptroller", "mixed-beverage tax payers only", null, 40)],
  },
];

let answer: StateCoverage[] | null;

function SearchStandIn() {
  const { search } = useLocation();
  return <p>Search page {search}</p>;
}

function renderPage() {
  return renderRoutes(
    [
      { path: "/data", element: <DataPage /> },
      { path: "/", element: <SearchStandIn /> },
    ],
    "/data",
  );
}

// Asked within the table or the map alone: the map's 51 shapes make a query of the whole page slow.
const table = () => screen.findByRole("table");
const row = (state: string) =>
  within(screen.getByRole("table"))
    .getByRole("rowheader", { name: new RegExp(`^Search ${state}`) })
    .closest("tr")!;
const findMap = () => screen.findByRole("group", { name: "Map of the states by what their data is and how old" });
/** The map's link for a covered state, by the name it starts with. */
const mapLink = (map: HTMLElement, name: string) =>
  within(map)
    .getAllByRole("link")
    .find((a) => a.getAttribute("aria-label")!.startsWith(`${name}:`))!;
beforeEach(() => {
  answer = COVERAGE;
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(2026, 10, 22, 10, 0));
  vi.stubGlobal(
    "fetch",
    vi.fn(async (path: string) => {
      if (new URL(path, "http://app").pathname === "/v2/states" && answer) return Response.json({ data: answer });
      // A service without our list of states.
      return Response.json({ type: "about:blank", title: "Not Found", status: 404 }, { status: 404 });
    }),
  );
});

describe("the Data page", () => {
  it("lists each covered state's records and sources, newest first, with coverage notes and how each date is known", async () => {
    renderPage();
    expect(
      within(await table())
        .getAllByRole("rowheader")
        .map((h) => h.textContent),
    ).toEqual([
      "Search District of Columbia",
      "Search Kentucky",
      "Search Massachusetts",
      "Search New York",
      "Search Pennsylvania",
      "Search Texas",
    ]);
    const pa = within(row("Pennsylvania"));
    expect(pa.getByText("2,500")).toBeTruthy();
    expect(row("Pennsylvania").querySelector("td")!.textContent).toBe("May 14, 2025 1 to 3 years old");
    // Allegheny's list is the newer of the two.
    expect(pa.getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      `${PLCB}, ALL PLCB geocodedAllegheny County onlyAs of May 14, 2025 (stated in the file); 1,000 records.`,
      `${PLCB}, PHL PLCB geocodedPhiladelphia County onlyAs of May 1, 2025 (stated in the file); 1,500 records.`,
    ]);
    const ny = within(row("New York"));
    expect(ny.getAllByRole("listitem").map((li) => li.querySelector(".coverage-sources__covers")!.textContent)).toEqual(
      [
        "applications received 2019-10-25 to 2020-02-04, statewide: not yet licensed",
        "New York City on-premises liquor licenses only",
      ],
    );
    ny.getByText("As of January 14, 2016 (the newest date in the file); 6,651 records.");

    // A source none of whose records is served today is kept out of the way, and still named.
    const dc = row("District of Columbia");
    expect(within(dc).getByText(/^1 earlier source/).textContent).toBe(
      "1 earlier source, none of whose records is served today",
    );
    expect(dc.querySelector("details li")!.textContent).toContain(
      "As of July 7, 2015 (stated in the file); 0 records.",
    );

    expect(row("Texas").querySelector("td")!.textContent).toBe("Not given age not known");
    within(row("Texas")).getByText("Its date is not given; 40 records.");

    const none = screen.getByText(/^Not covered for your team/).parentElement!;
    expect(none.textContent).toMatch(
      /^Not covered for your team \(45\): Alabama, Alaska, Arizona, Arkansas, California,/,
    );
    expect(none.textContent).not.toMatch(/Pennsylvania|Massachusetts|Texas,/);
  });

  it("shades each state on the map by the age of its newest data, named in words, with the legend's counts", async () => {
    renderPage();
    const map = await findMap();
    const shade = (name: string) => mapLink(map, name).dataset.age;

    const ma = mapLink(map, "Massachusetts");
    expect(ma.getAttribute("aria-label")).toBe(
      "Massachusetts: newest data as of March 20, 2026, under a year old. Search Massachusetts",
    );
    expect(ma.querySelector("title")!.textContent).toBe(
      "Massachusetts: newest data as of March 20, 2026, under a year old",
    );
    expect(shade("Massachusetts")).toBe("under-1");
    expect(shade("Pennsylvania")).toBe("1-3");
    expect(shade("Kentucky")).toBe("3-5");
    // New York's newest source is of 2020, though most of its records are of 2016.
    expect(shade("New York")).toBe("over-5");
    expect(shade("District of Columbia")).toBe("over-5");
    expect(shade("Texas")).toBe("undated");
    expect(within(map).getAllByRole("link")).toHaveLength(6);

    const alabama = within(map).getByRole("img", {
      name: "Alabama is not covered: License Lookup has no Alabama records for your team.",
    });
    expect(alabama.dataset.age).toBe("not-covered");
    expect(within(map).getAllByRole("img")).toHaveLength(45);

    expect(
      within(screen.getByRole("list", { name: "Map legend: how old the newest data is" }))
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual([
      "Newest data under a year old: 1 state",
      "Newest data 1 to 3 years old: 1 state",
      "Newest data 3 to 5 years old: 1 state",
      "Newest data over 5 years old: 2 states",
      "Newest data of a date not given: 1 state",
      "Not covered: 45 states",
    ]);
  });

  it("shades by today's date: a year on, the same data is a band older", async () => {
    vi.setSystemTime(new Date(2027, 2, 21, 9, 0));
    renderPage();
    const map = await findMap();
    expect(mapLink(map, "Massachusetts").dataset.age).toBe("1-3");
    expect(row("Massachusetts").querySelector("td")!.textContent).toBe("March 20, 2026 1 to 3 years old");
  });

  it("leads from a state on the map to its search", async () => {
    const user = userEvent.setup();
    const router = renderPage();
    await user.click(mapLink(await findMap(), "Pennsylvania"));
    await screen.findByText("Search page ?state=pa&by=name");
    expect(router.state.location.pathname).toBe("/");
  });

  it("draws and names no kind of data where the service does not say what backs a state", async () => {
    renderPage();
    const map = await findMap();
    expect(mapLink(map, "Pennsylvania").getAttribute("aria-label")).toBe(
      "Pennsylvania: newest data as of May 14, 2025, 1 to 3 years old. Search Pennsylvania",
    );
    expect(map.querySelector(".coverage-map__kind")).toBeNull();
    expect(screen.queryByRole("list", { name: "Map legend: what the data is" })).toBeNull();
    expect(screen.queryByText(/a license missing from it may still be licensed/)).toBeNull();
    expect(within(row("Pennsylvania")).getByRole("rowheader").textContent).toBe("Search Pennsylvania");
  });

  it("says so when the service does not list its states, and shows no map", async () => {
    answer = null;
    renderPage();
    await screen.findByText("This License Lookup service does not say which states it holds or how old their data is.");
    expect(screen.queryByRole("group", { name: /^Map of the states/ })).toBeNull();
  });
});

// What the service says backs each state (/v2/states' `kind`, decided in src/contract/coverage-kind.ts).
const KINDS: Record<string, CoverageKind> = {
  ma: "statewide_roster",
  pa: "part_of_state",
  ky: "part_of_state",
  ny: "statewide_roster",
  dc: "statewide_roster",
  tx: "not_a_roster",
};

describe("the Data page, where the service says what backs each state", () => {
  beforeEach(() => {
    answer = COVERAGE.map((c) => ({ ...c, kind: KINDS[c.state] }));
  });

  it("names each state on the map with what its data is, its date and its age", async () => {
    renderPage();
    const map = await findMap();
    const named = (name: string) => mapLink(map, name).getAttribute("aria-label");
    expect(named("Texas")).toBe("Texas: not a license roster; the data’s date is not given. Search Texas");
    expect(named("Pennsylvania")).toBe(
      "Pennsylvania: part of the state only; newest data as of May 14, 2025, 1 to 3 years old. Search Pennsylvania",
    );
    expect(named("Kentucky")).toMatch(/^Kentucky: part of the state only; newest data as of October 11, 2023/);
    expect(named("Massachusetts")).toMatch(/^Massachusetts: statewide license roster; newest data as of March 20/);
    // The tooltip on hover says the same.
    expect(mapLink(map, "Texas").querySelector("title")!.textContent).toBe(
      "Texas: not a license roster; the data’s date is not given",
    );
  });

  it("draws part of the state and no roster apart from a statewide roster, and says how in the legend", async () => {
    renderPage();
    const map = await findMap();
    const pattern = (name: string) => (mapLink(map, name).querySelector(".coverage-map__kind") ? "patterned" : "solid");
    expect(["Massachusetts", "Pennsylvania", "Kentucky", "Texas"].map(pattern)).toEqual([
      "solid",
      "patterned",
      "patterned",
      "patterned",
    ]);
    expect(mapLink(map, "Pennsylvania").dataset.kind).not.toBe(mapLink(map, "Texas").dataset.kind);

    expect(
      within(screen.getByRole("list", { name: "Map legend: what the data is" }))
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual([
      "Statewide license roster: 3 states",
      "Part of the state only (a county or a city): 2 states",
      "Not a license roster (tax filings, notices, changes): 1 state",
    ]);
    screen.getByText(
      "Where a state’s data covers part of the state or is not a license roster, a license missing from it may still be licensed.",
    );
  });

  it("says the same in the table, beside each state's name", async () => {
    renderPage();
    await table();
    expect(
      within(screen.getByRole("table"))
        .getAllByRole("rowheader")
        .map((h) => h.textContent),
    ).toEqual([
      "Search District of ColumbiaStatewide license roster",
      "Search KentuckyPart of the state only",
      "Search MassachusettsStatewide license roster",
      "Search New YorkStatewide license roster",
      "Search PennsylvaniaPart of the state only",
      "Search TexasNot a license roster",
    ]);
  });

  it("names the state under the pointer or the focus in the line under the map", async () => {
    const user = userEvent.setup();
    renderPage();
    const map = await findMap();
    const caption = () => document.querySelector(".coverage-map__caption")!.textContent;
    expect(caption()).toBe("Point at a state for its name, what its data is and how old.");
    await user.hover(mapLink(map, "Pennsylvania"));
    expect(caption()).toBe("Pennsylvania: part of the state only; newest data as of May 14, 2025, 1 to 3 years old");
    await user.hover(within(map).getByRole("img", { name: /^Ohio is not covered/ }));
    expect(caption()).toBe("Ohio is not covered: License Lookup has no Ohio records for your team.");
    mapLink(map, "Texas").focus();
    await vi.waitFor(() => expect(caption()).toBe("Texas: not a license roster; the data’s date is not given"));
  });
});
