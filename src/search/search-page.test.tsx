import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useQuery } from "@tanstack/react-query";
import { useParams } from "react-router";
import { licenseQueries } from "../api/license-queries.ts";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Source } from "../contract/envelopes.ts";
import type { License } from "../contract/license.ts";
import { SearchPage } from "./search-page.tsx";
import { renderRoutes } from "../shared/render-routes.tsx";

function license(n: number, overrides: Partial<License> = {}): License {
  return {
    object: "license",
    license: String(n).padStart(7, "0"),
    business: `Corner Tavern ${n}`,
    owner: "Pat Smith",
    phone: null,
    state: "ny",
    status: "active",
    updated_at: "2026-01-05 10:00:00.000000",
    address: { line_1: `${n} Main St`, line_2: null, city: "Albany", county: "Albany", state: "NY", zip: "12207" },
    dates: {
      ny: { effective: "2025-01-01", expires: "2027-01-01", issued_original: "2020-01-01", issued_latest: null },
    },
    details: { class: null, description: null, type: "OP" },
    ...overrides,
  };
}

/** Where our service says a license comes from. */
function provenanceOf(license: License) {
  const source = {
    id: 1,
    agency: "New York State Liquor Authority",
    title: "Active licenses",
    coverage: "All of New York",
    file: "ny.csv",
    sha256: "0".repeat(64),
    as_of: "2026-11-01",
    as_of_from: "stated in the file",
    loaded_at: "2026-11-02 08:00:00.000000",
    records: 2000,
  };
  return { state: license.state, license: license.license, as_of: "2026-11-01", source };
}

let searches: URLSearchParams[];
let results: License[];
/** When set, answers each search instead of `results`, when it likes. */
let reply: ((params: URLSearchParams) => Promise<License[]>) | null;
/** The licenses the batch route holds, by number. */
let held: License[];
let statesDown: boolean;
/** What the service says backs New York; none by default. */
let nySources: Source[];
/** Whether the service has our search-with-provenance extension; without it, a service with only the contract. */
let extension: boolean;
/** Every path asked of the service but the list of states. */
let requested: string[];

const problem = (status: number, requestId: string) =>
  Response.json(
    { type: "about:blank", title: "x", status, detail: `HTTP ${status}`, request_id: requestId },
    { status, headers: { "content-type": "application/problem+json" } },
  );

beforeEach(() => {
  searches = [];
  results = [license(1)];
  reply = null;
  held = [];
  statesDown = false;
  nySources = [];
  extension = false;
  requested = [];
  localStorage.clear();
  vi.stubGlobal(
    "fetch",
    vi.fn(async (path: string) => {
      const url = new URL(path, "http://app");
      if (url.pathname === "/v2/states") {
        if (statesDown) return problem(503, "req-7");
        const states = ["ny", "ma"].map((state) => ({
          state,
          name: state,
          records: 2000,
          sources: state === "ny" ? nySources : [],
        }));
        return Response.json({ data: states });
      }
      requested.push(url.pathname);
      if (url.pathname === "/v2/search-with-provenance" && extension) {
        searches.push(url.searchParams);
        const licenses = reply ? await reply(url.searchParams) : results;
        return Response.json({ data: { licenses, provenance: licenses.map(provenanceOf) } });
      }
      // A service without our extensions: where each license comes from is not given.
      if (url.pathname.startsWith("/v2/provenance") || url.pathname === "/v2/search-with-provenance") {
        return problem(404, "req-0");
      }
      if (url.pathname.startsWith("/v2/licenses/")) {
        const asked = url.searchParams.getAll("license");
        return Response.json({ data: asked.map((n) => held.find((l) => l.license === n) ?? null) });
      }
      if (url.pathname !== "/v2/search") return Response.json({ data: null });
      searches.push(url.searchParams);
      return Response.json({ data: reply ? await reply(url.searchParams) : results });
    }),
  );
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function Detail() {
  const { state, license: number } = useParams();
  return <h1>Detail {`${state}:${number}`}</h1>;
}

/** A license page as the app's reads it: the record from the cache or the service. */
function CachedDetail() {
  const { state = "", license: number = "" } = useParams();
  const record = useQuery(licenseQueries.detail(state, number));
  return <h1>{record.data ? `Record of ${record.data.business}` : "Loading the record"}</h1>;
}

function renderAt(url: string) {
  return renderRoutes(
    [
      { path: "/", Component: SearchPage },
      { path: "/license/:state/:license", Component: Detail },
    ],
    url,
  );
}

it("puts a submitted search in the URL, runs it, and shows the results", async () => {
  const user = userEvent.setup();
  const router = renderAt("/");
  await user.selectOptions(screen.getByLabelText("State"), "ny");
  await user.type(screen.getByLabelText("Business or owner name"), "tavern");
  await user.click(screen.getByRole("button", { name: "Search" }));
  expect(router.state.location.search).toBe("?state=ny&by=name&q=tavern");
  expect((await screen.findByText("1 license found.")).getAttribute("role")).toBe("status");
  expect(Object.fromEntries(searches.at(-1)!)).toEqual({ state: "ny", name: "tavern" });
  const result = screen.getByRole("listitem");
  expect(within(result).getByRole("link", { name: "Corner Tavern 1" }).getAttribute("href")).toBe(
    "/license/ny/0000001",
  );
  expect(within(result).getByText("Tavern").tagName).toBe("MARK");
});

it("opens a result in the app with the record the search brought, and leaves a new-tab click to the browser", async () => {
  extension = true;
  results = [license(1), license(2)];
  const user = userEvent.setup();
  const router = renderRoutes(
    [
      { path: "/", Component: SearchPage },
      { path: "/license/:state/:license", Component: CachedDetail },
    ],
    "/?state=ny&by=name&q=tavern",
  );
  const second = await screen.findByRole("link", { name: "Corner Tavern 2" });
  await user.keyboard("{Control>}");
  await user.click(second);
  await user.keyboard("{/Control}");
  expect(router.state.location.pathname).toBe("/");

  await user.click(second);
  await screen.findByRole("heading", { name: "Record of Corner Tavern 2" });
  expect(router.state.location.pathname).toBe("/license/ny/0000002");
  expect(requested.filter((path) => path.startsWith("/v2/license"))).toEqual([]);
});

it("asks our service once a search, for the licenses and where each comes from together", async () => {
  extension = true;
  renderAt("/?state=ny&by=name&q=tavern");
  const result = await screen.findByRole("listitem");
  within(result).getByText("New York State Liquor Authority, data as of November 1, 2026");
  expect(requested.filter((path) => path !== "/v2/decoding")).toEqual(["/v2/search-with-provenance"]);
  expect(Object.fromEntries(searches[0]!)).toEqual({ state: "ny", name: "tavern" });
});

it("from a service with only the contract, asks for the one-request search once, then searches as the contract does", async () => {
  const user = userEvent.setup();
  renderAt("/?state=ny&by=name&q=tavern");
  const result = await screen.findByRole("listitem");
  within(result).getByText("The service does not give this record’s source or date.");
  await user.type(screen.getByLabelText("Business or owner name"), "s");
  await screen.findByRole("heading", { name: "Results for “taverns” in New York" });
  await screen.findByText("1 license found.");
  expect(requested.filter((path) => path.startsWith("/v2/search"))).toEqual([
    "/v2/search-with-provenance",
    "/v2/search",
    "/v2/search",
  ]);
});

it("restores the search from the URL and remembers the state for next time", async () => {
  const user = userEvent.setup();
  renderAt("/?state=ma&by=address&q=main");
  await screen.findByRole("heading", { name: "Results for “main” in Massachusetts" });
  expect(screen.getByLabelText<HTMLSelectElement>("State").value).toBe("ma");
  expect(screen.getByRole<HTMLInputElement>("radio", { name: "Address" }).checked).toBe(true);
  expect(screen.getByLabelText<HTMLInputElement>("Street address").value).toBe("main");
  expect(Object.fromEntries(searches[0]!)).toEqual({ state: "ma", address: "main" });

  await user.click(screen.getByRole("button", { name: "Search" }));
  expect(localStorage.getItem("license-lookup:last-state")).toBe("ma");
});

it("sends a license number to its page instead of searching", async () => {
  const user = userEvent.setup();
  const router = renderAt("/?state=ny");
  await user.click(screen.getByRole("radio", { name: "License number" }));
  await user.type(screen.getByRole("searchbox", { name: "License number" }), "00/12 #3");
  await user.click(screen.getByRole("button", { name: "Open license" }));

  expect(router.state.location.pathname).toBe("/license/ny/00%2F12%20%233");
  await screen.findByRole("heading", { name: "Detail ny:00/12 #3" });
  expect(searches).toEqual([]);
});

it("says what to fix instead of submitting an incomplete search", async () => {
  const user = userEvent.setup();
  const router = renderAt("/");
  await user.click(screen.getByRole("button", { name: "Search" }));
  expect(document.activeElement).toBe(screen.getByLabelText("State"));
  screen.getByText("Choose a state.");
  expect(router.state.location.search).toBe("");
});

it("shows states outside the key's coverage as unavailable", async () => {
  renderAt("/");
  const nj = await screen.findByRole("option", { name: "New Jersey (NJ) – unavailable" });
  expect((nj as HTMLOptionElement).disabled).toBe(true);
  expect(screen.getByRole<HTMLOptionElement>("option", { name: "New York (NY)" }).disabled).toBe(false);
});

it("says plainly when only the first 10 are shown, and what to do when nothing matches", async () => {
  results = Array.from({ length: 10 }, (_, i) => license(i + 1));
  renderAt("/?state=ny&by=name&q=tavern");
  await screen.findByText(/Add more words to the name to narrow the search/);

  results = [];
  const user = userEvent.setup();
  await user.clear(screen.getByLabelText("Business or owner name"));
  await user.type(screen.getByLabelText("Business or owner name"), "zzz");
  await user.click(screen.getByRole("button", { name: "Search" }));
  await screen.findByText(/No license in New York has a business or owner name containing “zzz”/);
  expect(screen.getByRole("link", { name: "Search by address instead" }).getAttribute("href")).toBe(
    "/?state=ny&by=address&q=zzz",
  );
});

it("says why a pasted link's search was not run, and runs nothing", async () => {
  renderAt(`/?state=ny&by=name&q=${"x".repeat(101)}`);
  expect(screen.getByRole("alert").textContent).toBe(
    "The search in this link was not run. Name must be at most 100 characters.",
  );
  expect(screen.getByLabelText<HTMLInputElement>("Business or owner name").value).toBe("x".repeat(101));
  expect(screen.queryByRole("heading", { name: /Results for/ })).toBeNull();
  expect(searches).toEqual([]);
});

describe("a license number", () => {
  it("has a URL of its own: the form in License number mode with the number, and no search", async () => {
    renderAt("/?state=ny&by=license&q=1268007");
    expect(screen.getByRole<HTMLInputElement>("radio", { name: "License number" }).checked).toBe(true);
    expect(screen.getByRole<HTMLInputElement>("searchbox", { name: "License number" }).value).toBe("1268007");
    screen.getByRole("button", { name: "Open license" });
    await screen.findByRole("option", { name: "New Jersey (NJ) – unavailable" });
    expect(screen.queryByRole("heading", { name: /Results for/ })).toBeNull();
    expect(searches).toEqual([]);
  });

  it("comes back with Back: the form in License number mode, the number in the box", async () => {
    const user = userEvent.setup();
    const router = renderAt("/?state=ny");
    await user.click(screen.getByRole("radio", { name: "License number" }));
    await user.type(screen.getByRole("searchbox", { name: "License number" }), " 1268007 ");
    await user.click(screen.getByRole("button", { name: "Open license" }));
    await screen.findByRole("heading", { name: "Detail ny:1268007" });

    await act(() => router.navigate(-1));
    expect(router.state.location.search).toBe("?state=ny&by=license&q=1268007");
    expect(screen.getByRole<HTMLInputElement>("radio", { name: "License number" }).checked).toBe(true);
    expect(screen.getByRole<HTMLInputElement>("searchbox", { name: "License number" }).value).toBe("1268007");
  });

  it("keeps the search it was opened from in the history, behind the number", async () => {
    const user = userEvent.setup();
    const router = renderAt("/?state=ny&by=name&q=tavern");
    await screen.findByText("1 license found.");
    await user.click(screen.getByRole("radio", { name: "License number" }));
    // Typed over the name, which choosing the mode left selected in the box.
    await user.keyboard("1268007");
    await user.click(screen.getByRole("button", { name: "Open license" }));
    await screen.findByRole("heading", { name: "Detail ny:1268007" });

    await act(() => router.navigate(-1));
    expect(screen.getByRole<HTMLInputElement>("searchbox", { name: "License number" }).value).toBe("1268007");
    await act(() => router.navigate(-1));
    expect(router.state.location.search).toBe("?state=ny&by=name&q=tavern");
    await screen.findByText("1 license found.");
  });

  it("typed as a name is offered as a license, and the name search still runs", async () => {
    const user = userEvent.setup();
    const router = renderAt("/?state=ny");
    const box = screen.getByRole("searchbox", { name: "Business or owner name" });
    await user.type(box, "tavern");
    expect(screen.queryByText(/Looks like a license number/)).toBeNull();

    await user.clear(box);
    await user.type(box, "00780-RS-0116");
    expect(screen.getByText(/Looks like a license number/).textContent).toBe(
      "Looks like a license number. Look up license number 00780-RS-0116 in New York",
    );
    await user.click(screen.getByRole("button", { name: "Search" }));
    expect(Object.fromEntries(searches.at(-1)!)).toEqual({ state: "ny", name: "00780-RS-0116" });

    await user.click(screen.getByRole("link", { name: "Look up license number 00780-RS-0116 in New York" }));
    await screen.findByRole("heading", { name: "Detail ny:00780-RS-0116" });
    await act(() => router.navigate(-1));
    expect(screen.getByRole<HTMLInputElement>("searchbox", { name: "License number" }).value).toBe("00780-RS-0116");
  });
});

describe("choosing a mode", () => {
  it("puts the cursor in the box, its text selected, when chosen by pointer", async () => {
    const user = userEvent.setup();
    renderAt("/?state=ny&q=tavern");
    await user.click(screen.getByRole("radio", { name: "Address" }));
    const box = screen.getByRole<HTMLInputElement>("searchbox", { name: "Street address" });
    expect(document.activeElement).toBe(box);
    expect([box.selectionStart, box.selectionEnd]).toEqual([0, "tavern".length]);
  });

  it("leaves arrow keys in the group, so every mode stays in reach", async () => {
    // jsdom has no CSS.escape, which user-event's arrow keys need for the group's name ("by": nothing to escape).
    vi.stubGlobal("CSS", { escape: (name: string) => name });
    const user = userEvent.setup();
    renderAt("/?state=ny");
    screen.getByRole("radio", { name: "Name" }).focus();
    await user.keyboard("{ArrowRight}");
    expect(document.activeElement).toBe(screen.getByRole("radio", { name: "Address" }));
    await user.keyboard("{ArrowRight}");
    expect(document.activeElement).toBe(screen.getByRole("radio", { name: "License number" }));
    screen.getByRole("searchbox", { name: "License number" });
  });

  it("never shows results of another mode: they wait, unsearched, until the form is searched or set back", async () => {
    const user = userEvent.setup();
    const router = renderAt("/?state=ny&by=name&q=tavern");
    await screen.findByText("1 license found.");

    await user.click(screen.getByRole("radio", { name: "Address" }));
    expect(screen.queryByRole("heading", { name: /Results for/ })).toBeNull();
    await user.click(screen.getByRole("radio", { name: "License number" }));
    expect(screen.queryByRole("heading", { name: /Results for/ })).toBeNull();
    await user.click(screen.getByRole("radio", { name: "Name" }));
    await screen.findByText("1 license found.");
    expect(searches).toHaveLength(1);
    expect(router.state.location.search).toBe("?state=ny&by=name&q=tavern");

    await user.click(screen.getByRole("radio", { name: "Address" }));
    await act(() => router.navigate("/?state=ny&by=name&q=inn"));
    await act(() => router.navigate(-1));
    expect(screen.getByRole<HTMLInputElement>("radio", { name: "Name" }).checked).toBe(true);
    await screen.findByText("1 license found.");

    await user.click(screen.getByRole("radio", { name: "Address" }));
    await user.keyboard("{Enter}");
    expect(router.state.location.search).toBe("?state=ny&by=address&q=tavern");
    await screen.findByText("1 license found.");
    expect(Object.fromEntries(searches.at(-1)!)).toEqual({ state: "ny", address: "tavern" });
  });
});

describe("the state picker", () => {
  it("says what a clerk can do about a state the team has no records for", async () => {
    renderAt("/?state=nj");
    await screen.findByText(
      "License Lookup has no New Jersey records for your team. Ask whoever runs your License Lookup to add New Jersey.",
    );
  });

  it("names what the chosen state's data covers, newest first, and leads to every state's data", async () => {
    const sla = provenanceOf(license(1)).source;
    nySources = [
      { ...sla, id: 1, coverage: "New York City on-premises liquor licenses only", as_of: "2016-01-14", records: 1500 },
      { ...sla, id: 2, coverage: "applications received, statewide", as_of: "2020-02-04", records: 500 },
      // Every record of it replaced by a newer source's: it backs nothing today.
      { ...sla, id: 3, coverage: "an older list", as_of: "2014-01-27", records: 0 },
    ];
    renderAt("/?state=ny");
    const note = await screen.findByText(/^Data as of /);
    expect(note.textContent).toBe(
      "Data as of February 4, 2020. Covers applications received, statewide, as of February 4, 2020; New York City on-premises liquor licenses only, as of January 14, 2016. 2,000 records from New York State Liquor Authority.",
    );
    expect(screen.getByLabelText("State").getAttribute("aria-describedby")).toBe(note.id);
    expect(screen.getByRole("link", { name: "Every state’s data, and how old it is" }).getAttribute("href")).toBe(
      "/data",
    );
  });

  it("says when the service cannot be reached, with the time and request id, instead of offering every state", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(2026, 0, 5, 14, 30, 15));
    statesDown = true;
    const user = userEvent.setup();
    renderAt("/?state=ny");
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toMatch(
      /^The license service cannot be reached\. Nothing can be looked up until it answers\. Failed at January 5, 2026, 14:30 [A-Z+\d]+ \(request id req-7\)\.Try again$/,
    );
    expect(screen.getByLabelText("State").getAttribute("aria-describedby")).toBe(alert.id);

    statesDown = false;
    await user.click(within(alert).getByRole("button", { name: "Try again" }));
    await screen.findByRole("option", { name: "New Jersey (NJ) – unavailable" });
    expect(screen.queryByRole("alert")).toBeNull();
    screen.getByText("2,000 records from an unnamed source.");
  });
});

describe("searching as the clerk types", () => {
  const nameBox = () => screen.getByRole<HTMLInputElement>("searchbox", { name: "Business or owner name" });

  it("shows results without Enter, keeps the cursor in the box, and the URL follows once typing stops, as one entry", async () => {
    const user = userEvent.setup();
    const router = renderAt("/?state=ny&by=name&q=inn");
    await screen.findByText("1 license found.");
    await user.clear(nameBox());
    await user.type(nameBox(), "tavern");

    await screen.findByRole("heading", { name: "Results for “tavern” in New York" });
    await vi.waitFor(() => expect(router.state.location.search).toBe("?state=ny&by=name&q=tavern"));
    expect(Object.fromEntries(searches.at(-1)!)).toEqual({ state: "ny", name: "tavern" });
    // One letter searches nothing: the first search sent is "ta".
    expect(searches.map((p) => p.get("name"))).toEqual(["inn", "ta", "tav", "tave", "taver", "tavern"]);
    expect(document.activeElement).toBe(nameBox());

    // The keystrokes made one entry: Back goes to the search before them.
    await act(() => router.navigate(-1));
    expect(router.state.location.search).toBe("?state=ny&by=name&q=inn");
    // The box follows the URL as a transition: on a busy machine a little after the navigation itself (the last two
    // CI runs, 4 workers on 2 busy cores, did not see it within 5 s; never reproduced alone, even beside 3 busy loops).
    await vi.waitFor(() => expect(nameBox().value).toBe("inn"), { timeout: 15_000 });
  });

  it("opens a result clicked before the URL follows what was typed: the license stays open, and Back comes to the search", async () => {
    extension = true;
    const user = userEvent.setup();
    // The license page's code arrives after the URL would have followed the typing, as a lazy route's does.
    const router = renderRoutes(
      [
        { path: "/", Component: SearchPage },
        {
          path: "/license/:state/:license",
          lazy: async () => {
            await new Promise((resolve) => setTimeout(resolve, 400));
            return { Component: CachedDetail };
          },
        },
      ],
      "/?state=ny",
    );
    await user.type(nameBox(), "tavern");
    await user.click(await screen.findByRole("link", { name: "Corner Tavern 1" }));
    await screen.findByRole("heading", { name: "Record of Corner Tavern 1" });
    // Longer than the URL waits for typing to stop: nothing typed is written over the license.
    await act(() => new Promise((resolve) => setTimeout(resolve, 400)));
    expect(router.state.location.pathname).toBe("/license/ny/0000001");

    await act(() => router.navigate(-1));
    expect(router.state.location.search).toBe("?state=ny&by=name&q=tavern");
    expect(nameBox().value).toBe("tavern");
  });

  it("keeps a search in the history after a pause or Enter: the next keystroke starts a new entry", async () => {
    const user = userEvent.setup();
    const router = renderAt("/?state=ny");
    const urlSays = (q: string) =>
      vi.waitFor(() => expect(router.state.location.search).toBe(`?state=ny&by=name&q=${q}`));
    await user.type(nameBox(), "in");
    await urlSays("in");
    await user.type(nameBox(), "n");
    await urlSays("inn");
    // Typing on within a second rewrites the same entry.
    expect(router.state.historyAction).toBe("REPLACE");
    await act(() => new Promise((resolve) => setTimeout(resolve, 1100)));
    await user.type(nameBox(), "s");
    await urlSays("inns");
    expect(router.state.historyAction).toBe("PUSH");
    await user.keyboard("{Enter}");
    // Enter keeps what is on screen (no second entry for it) and takes the clerk to the results.
    expect(router.state.historyAction).toBe("REPLACE");
    await vi.waitFor(() => expect(document.activeElement?.id).toBe("results-heading"));
    await user.type(nameBox(), " x");
    await urlSays("inns+x");

    await act(() => router.navigate(-1));
    expect(router.state.location.search).toBe("?state=ny&by=name&q=inns");
    await act(() => router.navigate(-1));
    expect(router.state.location.search).toBe("?state=ny&by=name&q=inn");
    // The box follows the URL as a transition: on a busy machine a little after the navigation itself (the last two
    // CI runs, 4 workers on 2 busy cores, did not see it within 5 s; never reproduced alone, even beside 3 busy loops).
    await vi.waitFor(() => expect(nameBox().value).toBe("inn"));
  });

  it("never shows an older answer that comes after a newer one, and keeps the last answer on screen until the next", async () => {
    const open = new Map<string, () => void>();
    reply = (params) => {
      const q = params.get("name")!;
      return new Promise((resolve) => open.set(q, () => resolve([license(q.length, { business: `Answer to ${q}` })])));
    };
    const user = userEvent.setup();
    renderAt("/?state=ny");
    await user.type(nameBox(), "in");
    await vi.waitFor(() => expect(open.has("in")).toBe(true));
    open.get("in")!();
    await screen.findByRole("link", { name: "Answer to in" });

    await user.type(nameBox(), "nk");
    await vi.waitFor(() => expect(open.has("innk")).toBe(true));
    // While "innk" is on its way, "in"'s answer stays, said to be "in"'s (once the wait is more than a moment).
    await vi.waitFor(() =>
      expect(screen.getByRole("status").textContent).toBe("Searching… Showing the results for “in” until then."),
    );
    screen.getByRole("link", { name: "Answer to in" });

    open.get("innk")!();
    await screen.findByRole("link", { name: "Answer to innk" });
    open.get("inn")!();
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByRole("link", { name: "Answer to inn" })).toBeNull();
    screen.getByRole("link", { name: "Answer to innk" });
    expect(screen.getByRole("status").textContent).toBe("1 license found.");
  });
});

describe("near license numbers", () => {
  const NJ = license(1, {
    license: "0101-33-005-003",
    business: "Shore Tavern",
    state: "nj",
    dates: { nj: { effective: "2025-07-01", expires: "2026-06-30", issued_original: null, issued_latest: null } },
  });

  it("in License number mode, offers the number the state holds for one written without its padding", async () => {
    held = [NJ];
    const user = userEvent.setup();
    const router = renderAt("/?state=nj&by=license");
    await user.type(screen.getByRole("searchbox", { name: "License number" }), "0101-33-5-3");
    const offer = await screen.findByText(/^Did you mean/);
    expect(offer.textContent).toBe("Did you mean 0101-33-005-003?");
    // Offered, not taken: the clerk is still at the form.
    expect(router.state.location.pathname).toBe("/");
    await user.click(within(offer).getByRole("link", { name: "0101-33-005-003" }));
    await screen.findByRole("heading", { name: "Detail nj:0101-33-005-003" });
  });

  it("offers nothing for a number the state holds as written", async () => {
    held = [NJ, { ...NJ, license: "0101-33-5-3" }];
    const user = userEvent.setup();
    renderAt("/?state=nj&by=license");
    await user.type(screen.getByRole("searchbox", { name: "License number" }), "0101-33-5-3");
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByText(/Did you mean/)).toBeNull();
  });

  it("typed into the Name box in the state's format, even with spaces, is offered as a number lookup", async () => {
    const user = userEvent.setup();
    renderAt("/?state=nj");
    await user.type(screen.getByRole("searchbox", { name: "Business or owner name" }), "0101 33 005 003");
    const link = await screen.findByRole("link", { name: "Look up license number 0101 33 005 003 in New Jersey" });
    expect(link.getAttribute("href")).toBe("/license/nj/0101%2033%20005%20003");
  });
});

describe("close matches", () => {
  it("names the words a result holds only within a typo, and marks no exact result", async () => {
    results = [
      license(1, { business: "DEAD RABBIT TAVERN", owner: "Sean Muldoon" }),
      license(2, { business: "Dead Rabit Inn", owner: "Pat Smith" }),
    ];
    renderAt("/?state=ny&by=name&q=dead%20rabit");
    const [close, exact] = await screen.findAllByRole("listitem");
    expect(within(close!).getByText("close match for rabit")).toBeTruthy();
    expect(within(exact!).queryByText(/close match/)).toBeNull();
  });

  it("counts single letters apart or together, as the service does: “pj clarkes” is exact for P J CLARKE'S", async () => {
    results = [license(1, { business: "P J CLARKE'S", owner: "Pat Smith" })];
    renderAt("/?state=ny&by=name&q=pj%20clarkes");
    const item = await screen.findByRole("listitem");
    expect(within(item).queryByText(/close match/)).toBeNull();
  });

  it("looks at the street line when searching by address", async () => {
    results = [license(1, { address: { ...license(1).address, line_1: "12 Broadway" } })];
    renderAt("/?state=ny&by=address&q=12%20braodway");
    const item = await screen.findByRole("listitem");
    within(item).getByText("close match for braodway");
  });
});
