import { render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Provenance, StateCoverage } from "../contract/envelopes.ts";
import type { License } from "../contract/license.ts";
import { ExpiryNotice } from "./expiry-notice.tsx";
import { facts, renderLicenseRoute, stubFetch } from "./render-license-route.tsx";

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

const SOURCE: StateCoverage["sources"][number] = {
  id: 7,
  agency: "New York State Liquor Authority",
  title: "Liquor Authority Quarterly List of Active Licenses",
  coverage: "New York City on-premises liquor licenses only",
  file: "nyc_bars.csv",
  sha256: "ab".repeat(32),
  as_of: "2016-01-14",
  as_of_from: "the newest date in the file",
  loaded_at: "2026-11-22 09:00:00.000000",
  records: 6657,
};
const PROVENANCE: Provenance = { state: "ny", license: "0012345", as_of: "2016-01-14", source: SOURCE };

let requested: string[];
let reply: (path: string) => Response | Promise<Response>;

/** Our service's answers: the license, its provenance, no history, and what each state's data covers; no watchlist. */
function ourService(license: License | null, provenance: Provenance | null = license && PROVENANCE) {
  return (path: string) =>
    path.startsWith("/api/")
      ? new Response("Not found", { status: 404 })
      : path.startsWith("/v2/provenance/")
        ? Response.json({ data: provenance })
        : path.startsWith("/v2/history/")
          ? Response.json({ data: null })
          : path === "/v2/states"
            ? Response.json({ data: [{ state: "ny", name: "New York", records: 6657, sources: [SOURCE] }] })
            : Response.json({ data: license });
}

function problem(status: number) {
  return Response.json(
    { type: "about:blank", title: "Not Found", status, detail: "No license data for this state is available" },
    { status, headers: { "content-type": "application/problem+json" } },
  );
}

beforeEach(() => {
  requested = stubFetch((path) => reply(path));
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("the license page", () => {
  beforeEach(() => {
    // Only Date is faked: the router and the query client run on real timers.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(2026, 10, 22, 12));
  });

  it("says not found in our data, names what the data covers, and sends the clerk to the agency", async () => {
    reply = ourService(null);
    renderLicenseRoute("/license/ny/00%2F12%20%2334");
    await screen.findByText("not found");
    expect(requested).toEqual(
      expect.arrayContaining(["/v2/license/ny/00%2F12%20%2334", "/v2/provenance/ny/00%2F12%20%2334", "/v2/states"]),
    );
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("License 00/12 #34");
    const verdict = screen.getByRole("region", { name: "Verdict" }).textContent;
    expect(verdict).toContain(
      "Not in our New York data, which covers New York City on-premises liquor licenses only, as of January 14, 2016.",
    );
    expect(verdict).toContain("This does not mean the business is unlicensed.");
    expect(screen.getByRole("link", { name: /LAMP/ }).getAttribute("href")).toBe("https://lamp.sla.ny.gov/");
    // The way back keeps the number and the license-number mode.
    expect(screen.getByRole("link", { name: "Search New York" }).getAttribute("href")).toBe(
      "/?state=ny&by=license&q=00%2F12+%2334",
    );
  });

  it("shows a not-found answer once what the state's data covers is in, never a shorter one that then grows", async () => {
    let coverageIn!: () => void;
    const coverage = new Promise<void>((resolve) => (coverageIn = resolve));
    const service = ourService(null);
    reply = async (path) => {
      if (path === "/v2/states") await coverage;
      return service(path);
    };
    renderLicenseRoute("/license/ny/0012345");
    // The record, its source, table and history are in: the page has drawn what it has.
    await vi.waitFor(() => expect(document.body.textContent).not.toBe(""));
    expect(screen.queryByText("not found")).toBeNull();
    expect(screen.queryByRole("region", { name: "Verdict" })).toBeNull();
    expect(screen.getByRole("status").textContent).toBe("Loading…");

    coverageIn();
    await screen.findByText("not found");
    expect(screen.getByRole("region", { name: "Verdict" }).textContent).toContain(
      "Not in our New York data, which covers New York City on-premises liquor licenses only, as of January 14, 2016.",
    );
  });

  it("shows the verdict, the source and its date, decoded codes, and every field under its own label", async () => {
    reply = ourService({ ...FOUND, details: { class: "252", description: null, type: "OP" } });
    renderLicenseRoute("/license/ny/0012345");
    await screen.findByRole("heading", { level: 1, name: FOUND.business });
    expect(facts()).toEqual({
      Business: "Hudson Wine & Spirits",
      Owner: "Ada Moreno",
      Phone: "(518) 555-0100",
      Address: "12 Main StSuite 4Albany, NY 12207",
      County: "Albany",
      Number: "0012345",
      Status: "active (on the SLA's list of active licenses)",
      Type: "OP ON-PREMISES LIQUOR",
      Class: "252 ON-PREMISES LIQUOR / O.P. FOOD AND BEV",
      Description: "None given",
      Effective: "February 1, 2024",
      Expires: "January 31, 2020",
      "First issued": "February 1, 2019",
      "Last issued": "Not published by the state",
      Source: "New York State Liquor Authority: Liquor Authority Quarterly List of Active Licenses (nyc_bars.csv)",
      "Data as of": "January 14, 2016 (the newest date in the file)",
      "Loaded into License Lookup": "January 5, 2026, 10:20:30 UTC",
      Retrieved: expect.stringMatching(/^November 22, 2026, 12:00 [A-Z]+/),
      Page: "http://localhost:3000/",
    });
    const verdict = screen.getByRole("region", { name: "Verdict" });
    // Data of 2016 cannot know whether a license expiring in 2020 was renewed.
    expect(within(verdict).getByText("check").closest(".verdict")?.getAttribute("data-verdict")).toBe("check");
    expect(verdict.textContent).toContain(
      "Expires January 31, 2020, after our data of January 14, 2016: it may have been renewed. Confirm with the New York State Liquor Authority.",
    );
    expect(verdict.textContent).toContain(
      "Source: New York State Liquor Authority, Liquor Authority Quarterly List of Active Licenses, as of January 14, 2016.",
    );
    expect(screen.queryByText("valid")).toBeNull();
  });

  it("calls a license in force with fresh data valid, and names a code its table lacks as itself", async () => {
    const fresh = { ...PROVENANCE, as_of: "2026-03-20", source: { ...SOURCE, as_of: "2026-03-20" } };
    const current = { ...FOUND, details: { class: null, description: null, type: "ZZ" } };
    reply = ourService({ ...current, dates: { ny: { ...FOUND.dates.ny!, expires: "2027-01-31" } } }, fresh);
    renderLicenseRoute("/license/ny/0012345");
    await screen.findByText("valid");
    expect(screen.getByRole("region", { name: "Verdict" }).textContent).toContain(
      "In force (on the SLA's list of active licenses); expires January 31, 2027.",
    );
    expect(facts().Type).toBe("ZZ (code not in our table)");
  });

  it("still gives a verdict against a service without our extensions, and says the data's date is not given", async () => {
    reply = (path) =>
      path.startsWith("/v2/provenance/") || path === "/v2/states"
        ? problem(404)
        : Response.json({ data: { ...FOUND, dates: { ny: { ...FOUND.dates.ny!, expires: "2027-01-31" } } } });
    renderLicenseRoute("/license/ny/0012345");
    await screen.findByText("valid");
    const verdict = screen.getByRole("region", { name: "Verdict" }).textContent;
    expect(verdict).toContain("The data’s date is not given: confirm it is current.");
    expect(verdict).toContain("The service does not give this record’s source or date.");
  });

  it("says in plain words that a state the team cannot read is not covered", async () => {
    reply = () => problem(404);
    renderLicenseRoute("/license/tx/123");
    await screen.findByText("not covered");
    const verdict = screen.getByRole("region", { name: "Verdict" }).textContent;
    expect(verdict).toContain("License Lookup has no Texas records for your team");
    expect(verdict).toContain("ask whoever runs License Lookup for your team to add it");
    expect(document.body.textContent).not.toMatch(/API key/i);
    expect(screen.getByRole("link", { name: "Search another state" }).getAttribute("href")).toBe("/");
  });

  it("answers a link to a state that does not exist with its own page, and no error in the console", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    reply = ourService(null);
    renderLicenseRoute("/license/zz/1");
    await screen.findByRole("heading", { name: "No state “zz”" });
    expect(requested).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });

  it("shows a record without an address as such, without a stray comma or state", async () => {
    const bare = {
      ...FOUND,
      state: "nj",
      address: { line_1: "", line_2: null, city: "", county: "", state: "NJ", zip: "" },
    };
    reply = ourService({ ...bare, dates: { nj: FOUND.dates.ny! } }, null);
    renderLicenseRoute("/license/nj/0012345");
    await screen.findByRole("heading", { level: 1, name: FOUND.business });
    expect(facts().Address).toBe("No address given by the state");
  });

  it("takes an upper-case state to the canonical address", async () => {
    reply = ourService(null);
    const router = renderLicenseRoute("/license/NY/007");
    await screen.findByText("not found");
    expect(router.state.location.pathname).toBe("/license/ny/007");
  });
});

describe("the expiry notice", () => {
  const now = new Date(2026, 0, 10, 12);
  it("gives notice within 60 days, and stays quiet beyond and once passed (the verdict says expired)", () => {
    const { rerender } = render(<ExpiryNotice expires="2026-03-11" now={now} />);
    screen.getByText("Expires in 60 days, on March 11, 2026");
    rerender(<ExpiryNotice expires="2026-01-10" now={now} />);
    screen.getByText("Expires today, on January 10, 2026");
    rerender(<ExpiryNotice expires="2026-03-12" now={now} />);
    expect(screen.queryByText(/Expire/)).toBeNull();
    rerender(<ExpiryNotice expires="2026-01-09" now={now} />);
    expect(screen.queryByText(/Expire/)).toBeNull();
  });
});

describe("a license whose state publishes fewer dates", () => {
  it("marks each missing date as not published, never as a date", async () => {
    const sparse: License = {
      ...FOUND,
      address: { ...FOUND.address, county: "" },
      dates: { ny: { effective: null, expires: null, issued_original: null, issued_latest: null } },
    };
    reply = ourService(sparse);
    renderLicenseRoute("/license/ny/0012345");
    // Four dates and the county (Massachusetts, for one, publishes no county).
    expect(await screen.findAllByText("Not published by the state")).toHaveLength(5);
  });
});
