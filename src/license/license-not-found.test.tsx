import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import type { License } from "../contract/license.ts";
import { renderLicenseRoute, stubFetch } from "./render-license-route.tsx";

const HELD: License = {
  object: "license",
  license: "0101-33-005-003",
  business: "Shore Tavern",
  owner: "Dana Reyes",
  phone: null,
  state: "nj",
  status: "active",
  updated_at: "2026-01-05 10:20:30.123456",
  address: { line_1: "1 Ocean Ave", line_2: null, city: "Absecon", county: "Atlantic", state: "NJ", zip: "08201" },
  dates: { nj: { effective: "2025-07-01", expires: "2026-06-30", issued_original: null, issued_latest: null } },
  details: { class: null, description: null, type: "33" },
};

let requested: string[];

/** New Jersey holds 0101-33-005-003 and nothing else. */
beforeEach(() => {
  requested = stubFetch((path) => {
    const url = new URL(path, "http://app");
    if (url.pathname === "/v2/licenses/nj")
      return Response.json({ data: url.searchParams.getAll("license").map((n) => (n === HELD.license ? HELD : null)) });
    if (url.pathname.startsWith("/v2/provenance/nj") && url.searchParams.size > 0)
      return Response.json({ data: url.searchParams.getAll("license").map(() => null) });
    if (url.pathname === "/v2/states")
      return Response.json({ data: [{ state: "nj", name: "nj", records: 1, sources: [] }] });
    if (url.pathname === `/v2/license/nj/${HELD.license}`) return Response.json({ data: HELD });
    return Response.json({ data: null });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

it.each(["0101-33-5-3", "0101330050003", "0101 33 005 003"])(
  "offers the number New Jersey holds for %s as a link, and stays on the not-found page",
  async (given) => {
    const router = renderLicenseRoute(`/license/nj/${encodeURIComponent(given)}`);
    const offer = await screen.findByText(/^Did you mean/);
    expect(offer.textContent).toBe("Did you mean 0101-33-005-003?");
    expect(router.state.location.pathname).toBe(`/license/nj/${encodeURIComponent(given)}`);
    screen.getByText("not found");
    expect(requested).toContain(
      `/v2/licenses/nj?license=${encodeURIComponent(given).replace(/%20/g, "+")}&license=0101-33-005-003`,
    );

    await userEvent.setup().click(screen.getByRole("link", { name: "0101-33-005-003" }));
    await screen.findByRole("heading", { level: 1, name: "Shore Tavern" });
  },
);

it("offers nothing when no near form is held, or the number has none", async () => {
  renderLicenseRoute("/license/nj/0101-33-5-4");
  await screen.findByText("not found");
  // The near form's answer is in, and holds nothing.
  await vi.waitFor(() => expect(requested.some((p) => p.startsWith("/v2/licenses/nj"))).toBe(true));
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(screen.queryByText(/Did you mean/)).toBeNull();
});
