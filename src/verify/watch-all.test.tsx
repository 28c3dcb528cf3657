import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRef } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { WatchAddResult } from "../contract/watchlist.ts";
import { rowResult } from "./row-result-fixture.ts";
import { VerifyResults } from "./verify-results.tsx";
import { renderRoutes } from "../shared/render-routes.tsx";

// Found (matched) rows, one of them twice; a number not found; a state not covered.
const RESULTS = [
  rowResult(1, "ny", "12345", "0012345", "valid"),
  rowResult(2, "nj", "0101-33-005-003", "0101-33-005-003", "expired"),
  rowResult(3, "ny", "7777777", "", "not found"),
  rowResult(4, "tx", "1", "", "not covered"),
  rowResult(5, "ny", "0012345", "0012345", "valid"),
  rowResult(6, "ma", "00780-RS-0116", "00780-RS-0116", "inactive"),
];

let posted: unknown[];

function serve(answer: () => Response) {
  posted = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (path: string, init: RequestInit = {}) => {
      if (path === "/api/watchlist" && init.method === "POST") posted.push(JSON.parse(init.body as string));
      return answer();
    }),
  );
}

function renderResults() {
  const page = () => (
    <VerifyResults headingRef={createRef()} results={RESULTS} checkedAt="2026-11-22T10:00:00.000Z" complete />
  );
  renderRoutes([{ path: "/verify", Component: page }], "/verify");
}

afterEach(() => vi.unstubAllGlobals());

describe("Watch all found", () => {
  it("sends each found license once, by its matched number, and says what was added and what was not", async () => {
    const rows: WatchAddResult[] = [
      { row: 1, state: "ny", license: "0012345", outcome: "added", error: null },
      { row: 2, state: "nj", license: "0101-33-005-003", outcome: "already watched", error: null },
      {
        row: 6,
        state: "ma",
        license: "00780-RS-0116",
        outcome: "error",
        error: "The watchlist is full: it holds 10,000 licenses.",
      },
    ];
    serve(() => Response.json({ data: { rows, added: 1, watched: 10_000 } }));
    renderResults();
    await userEvent.click(await screen.findByRole("button", { name: "Watch all found (3)" }));
    const report = screen.getAllByRole("status").find((el) => el.classList.contains("watch-report"))!;
    await vi.waitFor(() =>
      expect(report.textContent).toContain("Added 1; 1 was already watched. 1 row was not added:"),
    );
    expect(report.textContent).toContain("Row 6: The watchlist is full: it holds 10,000 licenses.");
    expect(screen.getByRole("link", { name: "Open the watchlist" }).getAttribute("href")).toBe("/watchlist");
    expect(posted).toEqual([
      {
        rows: [
          { row: 1, state: "ny", license: "0012345" },
          { row: 2, state: "nj", license: "0101-33-005-003" },
          { row: 6, state: "ma", license: "00780-RS-0116" },
        ],
      },
    ]);
  });

  it("says so when this deployment keeps no watchlist", async () => {
    serve(() => new Response("Not found", { status: 404 }));
    renderResults();
    await userEvent.click(await screen.findByRole("button", { name: "Watch all found (3)" }));
    await screen.findByText("This deployment of License Lookup keeps no watchlist.");
  });
});
