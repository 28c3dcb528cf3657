import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { stubFetch } from "../license/render-license-route.tsx";
import { renderRoutes } from "../shared/render-routes.tsx";
import { UsersPage } from "./users-page.tsx";

const ADMIN = { id: 1, email: "admin@example.com", name: "Ada Admin", role: "admin" };
const MARIA = { id: 2, email: "maria@example.com", name: "Maria Lopez", role: "member" };
const listed = (user: typeof ADMIN, sessions: number) => ({
  ...user,
  created_at: "2027-01-01T00:00:00.000Z",
  last_sign_in_at: sessions ? "2027-03-03T15:02:00.000Z" : null,
  has_password: true,
  active_sessions: sessions,
});

/** An administrator's app server: every write is noted, and the list answers as it stands. */
function serve() {
  const writes: string[] = [];
  stubFetch((path, { method = "GET", body }) => {
    if (path === "/api/session") {
      return Response.json({ data: { user: ADMIN, development: false, expires_at: "2027-03-04T00:00:00.000Z" } });
    }
    if (method === "GET") return Response.json({ data: [listed(ADMIN, 1), listed(MARIA, 2)] });
    writes.push(`${method} ${path}${typeof body === "string" ? ` ${body}` : ""}`);
    if (method === "POST" && path === "/api/users") {
      return Response.json(
        {
          data: {
            user: { id: 3, email: "new@example.com", name: null, role: "auditor" },
            link: "https://app.test/set-password?token=abc",
          },
        },
        { status: 201 },
      );
    }
    if (path.endsWith("/reset")) return Response.json({ data: { link: "https://app.test/set-password?token=xyz" } });
    return new Response(null, { status: 204 });
  });
  return writes;
}

afterEach(() => vi.unstubAllGlobals());

describe("the Users page", () => {
  it("adds a user and shows the one-time link, changes a role, ends sessions and removes after asking", async () => {
    const writes = serve();
    renderRoutes([{ path: "/users", element: <UsersPage /> }], "/users");
    const maria = (await screen.findByText("maria@example.com")).closest("tr")!;
    expect(within(maria).getByText("2")).toBeTruthy();

    await userEvent.type(screen.getByLabelText("Email"), "new@example.com");
    await userEvent.selectOptions(screen.getByLabelText("Role"), "auditor");
    await userEvent.click(screen.getByRole("button", { name: "Add user" }));
    expect((await screen.findByLabelText<HTMLInputElement>("Password link for new@example.com")).value).toBe(
      "https://app.test/set-password?token=abc",
    );

    await userEvent.selectOptions(within(maria).getByLabelText("Role of maria@example.com"), "auditor");
    await userEvent.click(within(maria).getByRole("button", { name: "End the sessions of maria@example.com" }));
    await userEvent.click(within(maria).getByRole("button", { name: "Remove maria@example.com" }));
    // Asked first: nothing is removed until confirmed.
    expect(writes.filter((w) => w.startsWith("DELETE /api/users/2 "))).toEqual([]);
    await userEvent.click(within(maria).getByRole("button", { name: "Yes, remove" }));
    await vi.waitFor(() => expect(writes).toContain("DELETE /api/users/2"));

    expect(writes).toEqual([
      'POST /api/users {"email":"new@example.com","name":null,"role":"auditor"}',
      'PATCH /api/users/2 {"role":"auditor"}',
      "DELETE /api/users/2/sessions",
      "DELETE /api/users/2",
    ]);
    // An administrator does not remove themself from this page.
    const admin = screen.getByText("admin@example.com").closest("tr")!;
    expect(within(admin).queryByRole("button", { name: /^Remove/ })).toBeNull();
  });
});
