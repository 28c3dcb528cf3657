import { screen, within } from "@testing-library/react";
import { createRef } from "react";
import { describe, expect, it } from "vitest";
import { renderRoutes } from "../shared/render-routes.tsx";
import { rowResult } from "./row-result-fixture.ts";
import type { RowResult } from "./verify-list.ts";
import { VerifyResults } from "./verify-results.tsx";

function renderResults(results: (RowResult | undefined)[], complete: boolean) {
  const page = () => (
    <VerifyResults
      headingRef={createRef()}
      results={results}
      checkedAt="2026-11-22T10:00:00.000Z"
      complete={complete}
    />
  );
  renderRoutes([{ path: "/verify", Component: page }], "/verify");
}

const rowsShown = () =>
  within(screen.getByRole("table"))
    .getAllByRole("row")
    .slice(1)
    .map((r) => r.querySelector("td")!.textContent);
// Watch all found comes with its own code, a moment after the rest.
const held = async (name: string) => (await screen.findByRole<HTMLButtonElement>("button", { name })).disabled;

describe("a check's results", () => {
  it("while it runs, show a row only once the rows above it are in, count every answer, and hold the buttons", async () => {
    // Row 3 (a state not covered) was answered at once; row 2 is still on its way.
    renderResults(
      [rowResult(1, "ny", "1001", "1001", "valid"), undefined, rowResult(3, "tx", "1003", "", "not covered")],
      false,
    );
    expect(rowsShown()).toEqual(["1"]);
    expect(screen.getByRole("radio", { name: "all (2)" })).toBeTruthy();
    expect(screen.getByRole("radio", { name: "not covered (1)" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Verifying…" })).toBeTruthy();
    expect(screen.getByText(/^Started /)).toBeTruthy();
    for (const name of ["Download CSV", "Print report", "Watch all found (1)"])
      expect(await held(name), name).toBe(true);
  });

  it("once it ends, show every row and let the buttons act", async () => {
    renderResults(
      [
        rowResult(1, "ny", "1001", "1001", "valid"),
        rowResult(2, "ny", "1002", "1002", "expired"),
        rowResult(3, "tx", "1003", "", "not covered"),
      ],
      true,
    );
    expect(rowsShown()).toEqual(["1", "2", "3"]);
    expect(screen.getByRole("heading", { name: "3 rows verified" })).toBeTruthy();
    expect(screen.getByText(/^Checked /)).toBeTruthy();
    for (const name of ["Download CSV", "Print report", "Watch all found (2)"])
      expect(await held(name), name).toBe(false);
  });
});
