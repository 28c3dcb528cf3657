import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Role } from "../contract/accounts.ts";
import type { License } from "../contract/license.ts";
import { stubFetch } from "../license/render-license-route.tsx";
import { renderRoutes } from "../shared/render-routes.tsx";
import { VerifyPage } from "./verify-page.tsx";

const HELD: License = {
  object: "license",
  license: "0012345",
  business: "WHITE HORSE",
  owner: "WHITE HORSE LLC",
  phone: null,
  state: "ny",
  status: "active",
  updated_at: "2026-11-01 00:00:00.000000",
  address: { line_1: "1 Main St", line_2: null, city: "Albany", county: "", state: "NY", zip: "12207" },
  dates: { ny: { effective: null, expires: "2027-12-31", issued_original: null, issued_latest: null } },
  details: { class: null, description: null, type: "OP" },
};

/** The service holding HELD alone, and an app server whose session has `role`, recording a run's rows as 40, 41… */
function serve(role: Role) {
  const posted: unknown[] = [];
  stubFetch((path, init) => {
    const url = new URL(path, "http://app");
    if (path === "/api/session") {
      const user = { id: 1, email: "maria@example.com", name: null, role };
      return Response.json({ data: { user, development: false, expires_at: "2027-03-04T00:00:00.000Z" } });
    }
    if (path === "/api/checks") {
      const body = JSON.parse(init.body as string) as { rows: unknown[] };
      posted.push(body);
      return Response.json({ data: { ids: body.rows.map((_, i) => 40 + i) } });
    }
    if (url.pathname === "/v2/licenses/ny") {
      return Response.json({ data: url.searchParams.getAll("license").map((n) => (n === HELD.license ? HELD : null)) });
    }
    return new Response("Not found", { status: 404 });
  });
  return posted;
}

async function verify(list: string) {
  renderRoutes([{ path: "/verify", element: <VerifyPage /> }], "/verify");
  await userEvent.type(screen.getByLabelText("Licenses to verify"), list);
  await userEvent.click(screen.getByRole("button", { name: "Verify" }));
  await screen.findByRole("heading", { name: /rows verified/ });
}

afterEach(() => vi.unstubAllGlobals());

describe("a Verify run", () => {
  it("is recorded in one post with every row as the clerk gave it, on its line, once it ends, and says so", async () => {
    const posted = serve("member");
    await verify("NY, 0012345, White Horse{enter}{enter}NY, 9999999{enter}%%%%");
    expect((await screen.findByRole("link", { name: "Recorded in Checks" })).getAttribute("href")).toBe("/checks");
    expect(posted).toEqual([
      {
        action: "verify",
        zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        rows: [
          { line: 1, state: "NY", license: "0012345", business: "White Horse", address: "" },
          { line: 3, state: "NY", license: "9999999", business: "", address: "" },
          { line: 4, state: "%%%%", license: "", business: "", address: "" },
        ],
      },
    ]);
    // The screen numbers the rows by the same lines.
    expect(
      screen
        .getAllByRole("row")
        .slice(1)
        .map((tr) => tr.querySelector("td")?.textContent),
    ).toEqual(["1", "3", "4"]);
  });

  it("records an auditor's run too, and offers them no Watch all found", async () => {
    const posted = serve("auditor");
    await verify("NY, 0012345");
    screen.getByRole("button", { name: "Download CSV" });
    expect(screen.queryByRole("button", { name: /Watch all found/ })).toBeNull();
    await waitFor(() => expect(posted).toHaveLength(1));
  });
});
