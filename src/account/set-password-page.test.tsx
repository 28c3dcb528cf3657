import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, expect, it, vi } from "vitest";
import { stubFetch } from "../license/render-license-route.tsx";
import { renderRoutes } from "../shared/render-routes.tsx";
import { SetPasswordPage } from "./set-password-page.tsx";

afterEach(() => vi.unstubAllGlobals());

async function setTwice(password: string, again = password) {
  await userEvent.clear(screen.getByLabelText("New password"));
  await userEvent.type(screen.getByLabelText("New password"), password);
  await userEvent.clear(screen.getByLabelText("The same password again"));
  await userEvent.type(screen.getByLabelText("The same password again"), again);
  await userEvent.click(screen.getByRole("button", { name: "Set password and sign in" }));
}

it("takes a password of at least 12 characters typed twice alike, says why a link is refused, then signs in and goes home", async () => {
  let used = false;
  const sent: unknown[] = [];
  stubFetch((_path, init) => {
    sent.push(JSON.parse(init.body as string));
    if (!used) {
      used = true;
      return Response.json(
        { type: "about:blank", title: "Bad Request", status: 400, detail: "This link has expired" },
        { status: 400, headers: { "content-type": "application/problem+json" } },
      );
    }
    const user = { id: 2, email: "maria@example.com", name: null, role: "member" };
    return Response.json({ data: { user, development: false, expires_at: "2027-03-04T00:00:00.000Z" } });
  });
  const router = renderRoutes(
    [
      { path: "/set-password", element: <SetPasswordPage /> },
      { path: "/", element: <h1>Search</h1> },
    ],
    "/set-password?token=tok-1",
  );

  await setTwice("short");
  expect(screen.getByRole("alert").textContent).toBe("The password needs at least 12 characters; it has 5.");
  await setTwice("correct horse battery", "correct horse batery");
  expect(screen.getByRole("alert").textContent).toBe("The two passwords differ: type the same one twice.");
  expect(sent).toEqual([]);

  await setTwice("correct horse battery");
  expect((await screen.findByRole("alert")).textContent).toMatch(/^This link has expired\. A link works once/);
  await setTwice("correct horse battery");
  await screen.findByRole("heading", { name: "Search" });
  expect(router.state.location.pathname).toBe("/");
  expect(sent.at(-1)).toEqual({ token: "tok-1", password: "correct horse battery" });
});

it("says how long to wait when too many links were tried from this address", async () => {
  stubFetch(() =>
    Response.json(
      { type: "about:blank", title: "Too many failed sign-ins", status: 429, detail: "Too many failed sign-ins" },
      { status: 429, headers: { "content-type": "application/problem+json", "retry-after": "600" } },
    ),
  );
  renderRoutes([{ path: "/set-password", element: <SetPasswordPage /> }], "/set-password?token=tok-2");
  await setTwice("correct horse battery");
  expect((await screen.findByRole("alert")).textContent).toBe(
    "Too many failed sign-ins. Wait 10 minutes, then try again.",
  );
});
