import { expect, test } from "@playwright/test";

test("the service's docs page lists every route, from files the service serves itself", async ({ page }) => {
  const api = new URL(process.env.E2E_API_URL!);
  // Asked without a key, as a developer reading the docs would.
  const document = (await (await fetch(new URL("/v2/openapi.json", api))).json()) as { paths: object };
  const paths = Object.keys(document.paths);
  expect(paths).toContain("/v2/search");

  const elsewhere: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.protocol !== "data:" && url.origin !== api.origin) elsewhere.push(request.url());
  });
  // A blocked asset or a script error (a CDN unreachable, a CSP refusal) shows here.
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));

  await page.goto(new URL("/v2/docs", api).href);
  await expect(page.getByRole("heading", { name: /License Lookup v2/ })).toBeVisible();
  const route = (path: string) => page.getByRole("link", { name: path, exact: true });
  for (const path of paths) await expect(route(path)).toBeVisible();

  await route("/v2/search").click();
  await expect(page.getByText("Part of a business or owner name")).toBeVisible();
  await route("/v2/search").click();

  // Tried from the page with a key, a route answers for real.
  await page.getByRole("button", { name: "Authorize" }).click();
  // Swagger UI names its key box by its id: that is what a screen reader hears too.
  await page.getByRole("textbox", { name: "auth-bearer-value" }).fill(process.env.E2E_API_KEY!);
  await page.getByRole("button", { name: "Apply credentials" }).click();
  await page.getByRole("button", { name: "Close" }).click();
  await route("/v2/states").click();
  await page.getByRole("button", { name: "Try it out" }).click();
  await page.getByRole("button", { name: "Execute" }).click();
  // Swagger UI's table of the answer it got: no role or label to find it by.
  await expect(page.locator(".live-responses-table")).toContainText('"name": "New York"');

  expect(elsewhere).toEqual([]);
  expect(errors).toEqual([]);
});
