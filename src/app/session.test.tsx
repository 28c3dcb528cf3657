import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Role, Session } from "../contract/accounts.ts";
import type { Watchlist } from "../contract/watchlist.ts";
import { stubFetch } from "../license/render-license-route.tsx";
import { createQueryClient } from "./query-client.ts";
import { AppRoutes } from "./router.tsx";

const session = (role: Role, development = false): Session => ({
  user: { id: 1, email: "maria@example.com", name: "Maria Lopez", role },
  development,
  expires_at: "2027-03-04T00:00:00.000Z",
});

const EMPTY: Watchlist = {
  entries: [],
  changes: [],
  looked_at: null,
  check: null,
  next_check_at: null,
  alerts: { webhook: false, email: false, undelivered: [] },
  max: 10_000,
};

const signedOut = () =>
  Response.json(
    { type: "about:blank", title: "Sign-in required", status: 401, detail: "Sign in to License Lookup first." },
    { status: 401, headers: { "content-type": "application/problem+json" } },
  );

/** The whole app, as main.tsx runs it, at `url`. */
function app(url: string) {
  const router = createMemoryRouter([{ path: "*", element: <AppRoutes /> }], { initialEntries: [url] });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

afterEach(() => vi.unstubAllGlobals());

describe("the session in the app", () => {
  it("says who is signed in, offers Users to an administrator, and signs out to the sign-in page", async () => {
    let signedIn = true;
    stubFetch((path, init) => {
      if (path === "/api/sign-out") {
        signedIn = false;
        return new Response(null, { status: 204 });
      }
      if (path === "/api/session") return signedIn ? Response.json({ data: session("admin", true) }) : signedOut();
      if (path === "/api/sign-in") return Response.json({ data: { password: true, oidc: null } });
      if (path === "/api/watchlist" && init.method === undefined) return Response.json({ data: EMPTY });
      return new Response("Not found", { status: 404 });
    });
    const router = app("/watchlist");
    const header = screen.getByRole("banner");
    await within(header).findByText("Maria Lopez");
    expect(within(header).getByText("admin")).toBeTruthy();
    expect(within(header).getByRole("link", { name: "Users" }).getAttribute("href")).toBe("/users");
    expect(within(header).getByRole("link", { name: "Checks" }).getAttribute("href")).toBe("/checks");
    expect(screen.getByRole("note").textContent).toBe(
      "Development sign-in: you are signed in automatically as a local administrator.",
    );

    await userEvent.click(within(header).getByRole("button", { name: "Sign out" }));
    await screen.findByLabelText("Password");
    expect(router.state.location.pathname).toBe("/sign-in");
    expect(within(header).queryByText("Maria Lopez")).toBeNull();
  });

  it("shows sign-in when the session ends while the app is open, and comes back to the page after", async () => {
    let signedIn = true;
    let watchlistAsked = 0;
    stubFetch((path, init) => {
      if (path === "/api/session") return signedIn ? Response.json({ data: session("member") }) : signedOut();
      if (path === "/api/sign-in" && init.method === "POST") {
        signedIn = true;
        return Response.json({ data: session("member") });
      }
      if (path === "/api/sign-in") return Response.json({ data: { password: true, oidc: null } });
      if (path === "/api/watchlist") {
        watchlistAsked += 1;
        // The session ends on the server between the app's first two requests.
        if (watchlistAsked === 1) signedIn = false;
        return signedIn ? Response.json({ data: EMPTY }) : signedOut();
      }
      return new Response("Not found", { status: 404 });
    });
    const router = app("/watchlist?expiring=30");
    await screen.findByLabelText("Password");
    expect(router.state.location.pathname + router.state.location.search).toBe(
      "/sign-in?next=%2Fwatchlist%3Fexpiring%3D30",
    );

    await userEvent.type(screen.getByLabelText("Email"), "maria@example.com");
    await userEvent.type(screen.getByLabelText("Password"), "correct horse battery");
    await userEvent.click(screen.getByRole("button", { name: "Sign in" }));
    await screen.findByText(/licenses watched/);
    expect(router.state.location.pathname + router.state.location.search).toBe("/watchlist?expiring=30");
  });

  it("tells a member the Users page is not theirs", async () => {
    stubFetch((path) =>
      path === "/api/session" ? Response.json({ data: session("member") }) : new Response("", { status: 404 }),
    );
    app("/users");
    await screen.findByRole("heading", { name: "Not allowed" });
    expect(screen.getByText(/Only administrators manage users; you are signed in as a member/)).toBeTruthy();
  });

  it("without the app's server, shows no account at all and opens every page", async () => {
    stubFetch((path) =>
      path === "/api/watchlist" ? Response.json({ data: EMPTY }) : new Response("Not found", { status: 404 }),
    );
    const router = app("/watchlist");
    await screen.findByText(/licenses watched/);
    expect(router.state.location.pathname).toBe("/watchlist");
    expect(screen.queryByRole("button", { name: "Sign out" })).toBeNull();
    expect(screen.queryByRole("note")).toBeNull();
  });
});
