import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Session } from "../contract/accounts.ts";
import { stubFetch } from "../license/render-license-route.tsx";
import { renderRoutes } from "../shared/render-routes.tsx";
import { SignInPage } from "./sign-in-page.tsx";

const SESSION: Session = {
  user: { id: 3, email: "maria@example.com", name: "Maria Lopez", role: "member" },
  development: false,
  expires_at: "2027-03-03T22:00:00.000Z",
};

const problem = (status: number, detail: string, headers: Record<string, string> = {}) =>
  Response.json(
    { type: "about:blank", title: "x", status, detail },
    { status, headers: { "content-type": "application/problem+json", ...headers } },
  );

/** The app server signed out, offering both ways in; `answers` plays the password sign-ins in order. */
function serve(answers: (() => Response)[], oidc: { name: string } | null = { name: "Okta" }) {
  const sent: unknown[] = [];
  stubFetch((path, init) => {
    if (path === "/api/session") return problem(401, "Sign in to License Lookup first.");
    if (path === "/api/sign-in" && init.method === "POST") {
      sent.push(JSON.parse(init.body as string));
      return answers.shift()!();
    }
    if (path === "/api/sign-in") return Response.json({ data: { password: true, oidc } });
    return new Response("Not found", { status: 404 });
  });
  return sent;
}

function page(url: string) {
  return renderRoutes(
    [
      { path: "/sign-in", element: <SignInPage /> },
      { path: "/license/:state/:license", element: <h1>The license</h1> },
      { path: "/", element: <h1>Search</h1> },
    ],
    url,
  );
}

async function signIn(email: string, password: string) {
  await userEvent.clear(screen.getByLabelText("Email"));
  await userEvent.type(screen.getByLabelText("Email"), email);
  await userEvent.clear(screen.getByLabelText("Password"));
  await userEvent.type(screen.getByLabelText("Password"), password);
  await userEvent.click(screen.getByRole("button", { name: "Sign in" }));
}

afterEach(() => vi.unstubAllGlobals());

describe("the sign-in page", () => {
  it("says why a sign-in failed, how long to wait when throttled, and then returns to the page asked for", async () => {
    const sent = serve([
      () => problem(401, "that email and password do not match an account"),
      () => problem(429, "too many", { "Retry-After": "90" }),
      () => Response.json({ data: SESSION }),
    ]);
    const router = page("/sign-in?next=%2Flicense%2Fny%2F1268007%3Fx%3D1");
    await screen.findByLabelText("Email");
    // The identity provider is a full-page visit that carries the page to return to.
    expect(screen.getByRole("link", { name: "Sign in with Okta" }).getAttribute("href")).toBe(
      "/api/sign-in/oidc?next=%2Flicense%2Fny%2F1268007%3Fx%3D1",
    );

    await signIn("nobody@example.com", "wrong");
    expect((await screen.findByRole("alert")).textContent).toMatch(/^That email and password do not match an account/);
    await signIn("maria@example.com", "wrong again");
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Too many failed sign-ins. Wait 2 minutes, then try again.",
    );
    await signIn("maria@example.com", "correct horse battery");
    await screen.findByRole("heading", { name: "The license" });
    expect(router.state.location.pathname + router.state.location.search).toBe("/license/ny/1268007?x=1");
    expect(sent.at(-1)).toEqual({ email: "maria@example.com", password: "correct horse battery" });
  });

  it("returns only to this app's own pages", async () => {
    serve([() => Response.json({ data: SESSION })], null);
    const router = page("/sign-in?next=%2F%2Fevil.example%2Fsteal");
    await screen.findByLabelText("Email");
    expect(screen.queryByRole("link", { name: /Sign in with/ })).toBeNull();
    await signIn("maria@example.com", "correct horse battery");
    await screen.findByRole("heading", { name: "Search" });
    expect(router.state.location.pathname).toBe("/");
  });

  it.each([
    ["not-allowed", "Okta knows you, but your account may not use License Lookup. Ask an administrator to add you."],
    ["unverified-email", "Okta has not verified your email address"],
    ["oidc-failed", "Signing in with Okta did not work. Try again"],
  ])("explains the identity provider's refusal %s", async (code, words) => {
    serve([]);
    page(`/sign-in?error=${code}&next=%2Fchecks`);
    expect((await screen.findByRole("alert")).textContent).toContain(words);
  });

  it("without the app's server, says there is nothing to sign in to and never blocks the app", async () => {
    stubFetch(() => new Response("Not found", { status: 404 }));
    page("/sign-in?next=%2Fverify");
    await screen.findByText(/runs without its own server/);
    expect(screen.getByRole("link", { name: "Go on to the app" }).getAttribute("href")).toBe("/verify");
    expect(screen.queryByLabelText("Password")).toBeNull();
  });
});
