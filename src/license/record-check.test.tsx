import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import { StrictMode, Suspense } from "react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Role } from "../contract/accounts.ts";
import type { License } from "../contract/license.ts";
import { LicenseRoute } from "./license-route.tsx";
import { stubFetch } from "./render-license-route.tsx";

const RECORD: License = {
  object: "license",
  license: "0012345",
  business: "ACME TAVERN",
  owner: "ACME LLC",
  phone: null,
  state: "ny",
  status: "active",
  updated_at: "2026-11-01 00:00:00.000000",
  address: { line_1: "1 Main St", line_2: null, city: "Albany", county: "Albany", state: "NY", zip: "12207" },
  dates: { ny: { effective: null, expires: "2016-12-31", issued_original: null, issued_latest: null } },
  details: { class: null, description: null, type: "OP" },
};

const notFound = () => new Response("Not found", { status: 404 });

/** The license service, and an app server whose session has `role` (none: no app server), recording checks as 77. */
function serve(role: Role | null, record: License | null = RECORD) {
  const posted: unknown[] = [];
  stubFetch((path, init) => {
    if (path === "/api/session") {
      if (!role) return notFound();
      const user = { id: 1, email: "maria@example.com", name: "Maria Lopez", role };
      return Response.json({ data: { user, development: false, expires_at: "2027-03-04T00:00:00.000Z" } });
    }
    if (path === "/api/checks" && init.method === "POST") {
      posted.push(JSON.parse(init.body as string));
      return role ? Response.json({ data: { ids: [77] } }) : notFound();
    }
    if (path.startsWith("/api/")) return notFound();
    if (path.startsWith("/v2/license/")) return Response.json({ data: record });
    if (path === "/v2/states") return Response.json({ data: [] });
    return Response.json({ data: null });
  });
  return posted;
}

/** The page as the app runs it: in StrictMode, whose effects run twice on mount in development. */
function page(url: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      {
        path: "/license/:state/:license",
        element: (
          <Suspense fallback={null}>
            <LicenseRoute />
          </Suspense>
        ),
      },
    ],
    { initialEntries: [url] },
  );
  render(
    <StrictMode>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe("recording a license page's verdict", () => {
  it("posts the license once per page opened, with the clerk's zone, and says it is recorded", async () => {
    const posted = serve("member");
    page("/license/ny/0012345");
    const recorded = await screen.findByRole("link", { name: "Recorded in Checks" });
    expect(recorded.getAttribute("href")).toBe("/checks/77");
    expect(recorded.closest("section")?.getAttribute("aria-labelledby")).toBe("sec-verdict");
    expect(posted).toEqual([
      {
        action: "license page",
        zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        rows: [{ state: "ny", license: "0012345" }],
      },
    ]);
  });

  it("records a not-found answer too", async () => {
    const posted = serve("member", null);
    page("/license/ny/999");
    await screen.findByRole("link", { name: "Recorded in Checks" });
    expect(posted).toEqual([expect.objectContaining({ rows: [{ state: "ny", license: "999" }] })]);
  });

  it("records and shows nothing without the app's server, where no one signs in", async () => {
    const posted = serve(null);
    page("/license/ny/0012345");
    await screen.findByText("check");
    await screen.findByRole("button", { name: "Copy link" });
    expect(posted).toEqual([]);
    expect(screen.queryByText("Recorded in Checks")).toBeNull();
  });

  it("records an auditor's check too, and offers them no Watch button", async () => {
    const posted = serve("auditor");
    page("/license/ny/0012345");
    await screen.findByText("check");
    await screen.findByRole("button", { name: "Copy link" });
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(screen.queryByRole("button", { name: /Watch/ })).toBeNull();
  });
});
