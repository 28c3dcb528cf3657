import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { License } from "../contract/license.ts";
import { ExpiryNotice } from "./expiry-notice.tsx";
import { licenseRoute } from "./license-route.tsx";

const FOUND: License = {
  object: "license",
  license: "0012345",
  business: "Hudson Wine & Spirits",
  owner: "Ada Moreno",
  phone: "(518) 555-0100",
  state: "ny",
  status: "active",
  updated_at: "2026-01-05 10:20:30.123456",
  address: { line_1: "12 Main St", line_2: "Suite 4", city: "Albany", county: "Albany", state: "NY", zip: "12207" },
  dates: { ny: { effective: "2024-02-01", expires: "2020-01-31", issued_original: "2019-02-01", issued_latest: null } },
  details: { class: "L", description: "Liquor store", type: "LL" },
};

let requested: string[];
let reply: (path: string) => Response;

beforeEach(() => {
  requested = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (path: string) => {
      requested.push(path);
      return reply(path);
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** Each label of the page's facts and the text beside it: a value shown under the wrong label fails. */
function facts(): Record<string, string> {
  return Object.fromEntries(
    [...document.querySelectorAll(".facts__row")].map((row): [string, string] => [
      row.querySelector("dt")?.textContent ?? "",
      row.querySelector("dd")?.textContent ?? "",
    ]),
  );
}

function renderAt(url: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: "/", element: <h1>Search</h1> },
      { path: "/license/:state/:license", HydrateFallback: () => null, ...licenseRoute(client) },
    ],
    { initialEntries: [url] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe("the license page", () => {
  it("names the number exactly as given when the service answers null", async () => {
    reply = () => Response.json({ data: null });
    renderAt("/license/ny/00%2F12%20%2334");
    await screen.findByRole("heading", { name: "License not found" });
    expect(requested).toEqual(["/v2/license/ny/00%2F12%20%2334"]);
    expect(screen.getByText("00/12 #34").closest("p")?.textContent).toBe("New York has no license numbered 00/12 #34.");
  });

  it("shows every field under its own label, and warns when an active license is past its expiry date", async () => {
    // Only Date is faked: the router and the query client run on real timers.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(2026, 10, 22, 12));
    reply = () => Response.json({ data: FOUND });
    renderAt("/license/ny/0012345");
    await screen.findByRole("heading", { level: 1, name: FOUND.business });
    expect(facts()).toEqual({
      Business: "Hudson Wine & Spirits",
      Owner: "Ada Moreno",
      Phone: "(518) 555-0100",
      Address: "12 Main StSuite 4Albany, NY 12207",
      County: "Albany",
      Number: "0012345",
      Status: "active",
      Type: "LL",
      Class: "L",
      Description: "Liquor store",
      Effective: "February 1, 2024",
      Expires: "January 31, 2020",
      "First issued": "February 1, 2019",
      "Last issued": "Not published by the state",
      "Record updated": "January 5, 2026, 10:20:30 (2026-01-05 10:20:30.123456)",
      Retrieved: expect.stringMatching(/^November 22, 2026 at 12:00:00/),
      Page: "http://localhost:3000/",
    });
    screen.getByText("Expired on January 31, 2020");
    screen.getByText(/still says “active”/);
    expect(screen.getByRole("button", { name: "Copy link" })).toBeTruthy();
  });

  it("explains a state outside the key's coverage and offers another", async () => {
    reply = () =>
      Response.json(
        { type: "about:blank", title: "Not Found", status: 404, detail: "nj is not covered" },
        { status: 404, headers: { "content-type": "application/problem+json" } },
      );
    renderAt("/license/nj/123");
    await screen.findByRole("heading", { name: "New Jersey is not available" });
    expect(screen.getByRole("link", { name: "Pick another state" }).getAttribute("href")).toBe("/");
  });

  it("takes an upper-case state to the canonical address", async () => {
    reply = () => Response.json({ data: null });
    const router = renderAt("/license/NY/007");
    await screen.findByRole("heading", { name: "License not found" });
    expect(router.state.location.pathname).toBe("/license/ny/007");
  });
});

describe("the expiry notice", () => {
  const now = new Date(2026, 0, 10, 12);
  it("warns once the date has passed, even when the status says active", () => {
    render(<ExpiryNotice expires="2026-01-09" status="Active" now={now} />);
    screen.getByText("Expired on January 9, 2026");
    screen.getByText(/still says “active”/);
  });

  it("gives notice within 60 days, and stays quiet beyond", () => {
    const { rerender } = render(<ExpiryNotice expires="2026-03-11" status="active" now={now} />);
    screen.getByText("Expires in 60 days, on March 11, 2026");
    rerender(<ExpiryNotice expires="2026-01-10" status="active" now={now} />);
    screen.getByText("Expires today, on January 10, 2026");
    rerender(<ExpiryNotice expires="2026-03-12" status="active" now={now} />);
    expect(screen.queryByText(/Expire/)).toBeNull();
  });

  it("says so when the state publishes no expiry date, rather than staying quiet", () => {
    render(<ExpiryNotice expires={null} status="active" now={now} />);
    screen.getByText("No expiry date published");
  });
});

describe("a license whose state publishes fewer dates", () => {
  it("marks each missing date as not published, never as a date", async () => {
    const sparse: License = {
      ...FOUND,
      address: { ...FOUND.address, county: "" },
      dates: { ny: { effective: null, expires: null, issued_original: null, issued_latest: null } },
    };
    reply = () => Response.json({ data: sparse });
    renderAt("/license/ny/0012345");
    // Four dates and the county (Massachusetts, for one, publishes no county).
    expect(await screen.findAllByText("Not published by the state")).toHaveLength(5);
  });
});
