import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider, useParams } from "react-router";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import type { License } from "../contract/license.ts";
import { Component as SearchPage } from "./search-page.tsx";

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

let searches: URLSearchParams[];
let results: License[];

beforeEach(() => {
  searches = [];
  results = [license(1)];
  localStorage.clear();
  vi.stubGlobal(
    "fetch",
    vi.fn(async (path: string) => {
      const url = new URL(path, "http://app");
      if (url.pathname === "/v2/states") {
        const states = ["ny", "ma"].map((state) => ({
          state,
          name: state,
          records: 2000,
          sources: [],
        }));
        return Response.json({ data: states });
      }
      searches.push(url.searchParams);
      return Response.json({ data: results });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

function Detail() {
  const { state, license: number } = useParams();
  return <h1>Detail {`${state}:${number}`}</h1>;
}

function renderAt(url: string) {
  const router = createMemoryRouter(
    [
      { path: "/", Component: SearchPage },
      { path: "/license/:state/:license", Component: Detail },
    ],
    { initialEntries: [url] },
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

it("puts a submitted search in the URL, runs it, and shows the results", async () => {
  const user = userEvent.setup();
  const router = renderAt("/");
  await user.selectOptions(screen.getByLabelText("State"), "ny");
  await user.type(screen.getByLabelText("Business or owner name"), "tavern");
  await user.click(screen.getByRole("button", { name: "Search" }));
  expect(router.state.location.search).toBe("?state=ny&by=name&q=tavern");
  expect((await screen.findByText("1 license found.")).getAttribute("role")).toBe("status");
  expect(Object.fromEntries(searches[0]!)).toEqual({ state: "ny", name: "tavern" });
  const result = screen.getByRole("listitem");
  expect(within(result).getByRole("link", { name: "Corner Tavern 1" }).getAttribute("href")).toBe(
    "/license/ny/0000001",
  );
  expect(within(result).getByText("Tavern").tagName).toBe("MARK");
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
  await screen.findByText(/Only the first 10 matches are shown/);

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
