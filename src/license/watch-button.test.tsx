import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { License } from "../contract/license.ts";
import type { WatchEntry } from "../contract/watchlist.ts";
import { renderLicenseRoute, stubFetch } from "./render-license-route.tsx";

const NUMBER = "00/12 #34";
const RECORD: License = {
  object: "license",
  license: NUMBER,
  business: "ACME TAVERN",
  owner: "ACME LLC",
  phone: null,
  state: "ny",
  status: "active",
  updated_at: "2026-11-01 00:00:00.000000",
  address: { line_1: "1 Main St", line_2: null, city: "Albany", county: "Albany", state: "NY", zip: "12207" },
  dates: { ny: { effective: null, expires: "2027-03-31", issued_original: null, issued_latest: null } },
  details: { class: null, description: null, type: "OP" },
};
const ENTRY_PATH = "/api/watchlist/ny/00%2F12%20%2334";

function entry(): WatchEntry {
  return {
    state: "ny",
    license: NUMBER,
    added_at: "2026-11-22T10:00:00.000Z",
    checked_at: "2026-11-22T10:00:00.000Z",
    outcome: "found",
    record: RECORD,
    provenance: null,
    unseen: 0,
  };
}

const problem = (status: number, detail: string) =>
  Response.json(
    { type: "about:blank", title: "x", status, detail },
    { status, headers: { "content-type": "application/problem+json" } },
  );

/** The license service with RECORD, and the app server's watchlist, whose answers `watchlist` gives. */
function serve(watchlist: (method: string) => Response) {
  const writes: string[] = [];
  stubFetch((path, { method = "GET" }) => {
    if (path === ENTRY_PATH) {
      if (method !== "GET") writes.push(method);
      return watchlist(method);
    }
    if (path.startsWith("/v2/license/")) return Response.json({ data: RECORD });
    return Response.json({ data: null });
  });
  return writes;
}

afterEach(() => vi.unstubAllGlobals());

const page = () => renderLicenseRoute(`/license/ny/${encodeURIComponent(NUMBER)}`);

describe("the Watch button on a license", () => {
  it("watches the license, then reads Watching and stops watching it when pressed again", async () => {
    let watched = false;
    const writes = serve((method) => {
      if (method === "PUT") watched = true;
      if (method === "DELETE") {
        watched = false;
        return new Response(null, { status: 204 });
      }
      return Response.json({ data: watched ? entry() : null });
    });
    page();
    const button = await screen.findByRole("button", { name: "Watch" });
    expect(button.getAttribute("aria-pressed")).toBe("false");

    await userEvent.click(button);
    const watching = await screen.findByRole("button", { name: "Watching" });
    expect(watching.getAttribute("aria-pressed")).toBe("true");
    expect(watching.getAttribute("title")).toBe("Stop watching");
    screen.getByText("Added to the team’s watchlist.");
    expect(screen.getByRole("link", { name: "Open the watchlist" }).getAttribute("href")).toBe("/watchlist");

    await userEvent.click(watching);
    await screen.findByRole("button", { name: "Watch" });
    screen.getByText("No longer watched.");
    expect(writes).toEqual(["PUT", "DELETE"]);
  });

  it("says why next to the button when the watchlist refuses the license", async () => {
    serve((method) =>
      method === "PUT"
        ? problem(409, "The watchlist is full: it holds 10,000 licenses. Remove some before adding more.")
        : Response.json({ data: null }),
    );
    page();
    await userEvent.click(await screen.findByRole("button", { name: "Watch" }));
    const actions = screen.getByRole("button", { name: "Watch" }).parentElement!;
    await within(actions).findByText(
      "The watchlist is full: it holds 10,000 licenses. Remove some before adding more.",
    );
    expect(screen.getByRole("button", { name: "Watch" }).getAttribute("aria-pressed")).toBe("false");
  });

  it("is not there at all when the app is served without a watchlist", async () => {
    serve(() => new Response("Not found", { status: 404 }));
    page();
    await screen.findByRole("heading", { level: 1, name: "ACME TAVERN" });
    await waitFor(() => expect(vi.mocked(fetch).mock.calls.map(([path]) => path)).toContain(ENTRY_PATH));
    screen.getByRole("button", { name: "Copy link" });
    expect(screen.queryByRole("button", { name: /Watch/ })).toBeNull();
    expect(document.body.textContent).not.toMatch(/watchlist/i);
  });
});
