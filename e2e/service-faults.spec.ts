import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { buildWebApp } from "../server/web/web-app.ts";
import { freePort } from "../server/testing/free-port.ts";
import { start, stop, waitForHttp } from "./global-setup.ts";
import { apiLicense, DEMO, telltaleWord } from "./service.ts";

const dist = join(import.meta.dirname, "..", "dist");
const results = (page: Page) => page.getByRole("list", { name: "Matching licenses" });

const tooMany = (seconds: number) => ({
  status: 429,
  headers: { "content-type": "application/problem+json", "retry-after": String(seconds) },
  body: JSON.stringify({ type: "about:blank", title: "Too Many Requests", status: 429, detail: "Slow down." }),
});

test("when the service stops, the page offers a retry, and the retry works once the service is back", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const word = telltaleWord((await apiLicense(DEMO.state, DEMO.license))!.business).toLowerCase();
  // A service of its own, on the same data: stopping the shared one would fail the other specs.
  const port = await freePort();
  const apiUrl = `http://127.0.0.1:${port}`;
  const apiArgs = [
    "run",
    "api",
    "--",
    "--db",
    process.env.E2E_DB!,
    "--port",
    String(port),
    "--host",
    "127.0.0.1",
    "--quiet",
  ];
  let api = start(apiArgs);
  const web = await buildWebApp({ distDir: dist, apiBaseUrl: apiUrl, apiKey: process.env.E2E_API_KEY! });
  try {
    await waitForHttp(`${apiUrl}/v2/states`, api);
    const appUrl = await web.listen({ host: "127.0.0.1", port: 0 });
    await page.goto(`${appUrl}/?state=ny&by=name&q=inc`);
    await expect(results(page).getByRole("link").first()).toBeVisible();

    await stop(api);
    await page.getByRole("searchbox", { name: "Business or owner name" }).fill(word);
    await page.getByRole("button", { name: "Search" }).click();
    // Two quick retries of its own (1 s, then 2 s), then the person decides.
    await expect(page.getByRole("alert")).toContainText("The license service ran into a problem", { timeout: 10_000 });
    const retry = page.getByRole("button", { name: "Try again" });

    api = start(apiArgs);
    await waitForHttp(`${apiUrl}/v2/states`, api);
    await retry.click();
    await expect(results(page).getByRole("link").first()).toBeVisible();
    await expect(page.getByRole("alert")).toHaveCount(0);
  } finally {
    // The page first: a connection it holds open to this app server would keep the server's close waiting.
    await page.close();
    await web.close();
    await stop(api);
  }
});

test("a 429 says how long to wait, then the license page loads by itself", async ({ page }) => {
  const demo = (await apiLicense(DEMO.state, DEMO.license))!;
  let asked = 0;
  await page.route("**/v2/license/**", (route) => (asked++ === 0 ? route.fulfill(tooMany(2)) : route.continue()));
  await page.goto(`/license/${DEMO.state}/${DEMO.license}`);
  await expect(page.getByRole("alert")).toContainText("Wait 2 seconds");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(demo.business, { timeout: 5_000 });
  expect(asked).toBe(2);
});

test("a 429 says how long to wait, then the search runs again by itself", async ({ page }) => {
  let asked = 0;
  await page.route("**/v2/search-with-provenance?*", (route) =>
    asked++ === 0 ? route.fulfill(tooMany(2)) : route.continue(),
  );
  await page.goto("/?state=ny&by=name&q=inc");
  await expect(page.getByRole("alert")).toContainText("Wait 2 seconds");
  await expect(results(page).getByRole("link").first()).toBeVisible({ timeout: 5_000 });
  expect(asked).toBe(2);
});

test("the built app runs under its security headers and Content-Security-Policy, with no inline script", async ({
  page,
}) => {
  const html = readFileSync(join(dist, "index.html"), "utf8");
  expect(html).toMatch(/<script [^>]*src="\/assets\//);
  expect(html.match(/<script(?![^>]*\ssrc=)[^>]*>/g)).toBeNull();

  const violations: string[] = [];
  page.on("console", (message) => {
    if (message.text().includes("Content Security Policy")) violations.push(message.text());
  });
  await page.addInitScript(() =>
    document.addEventListener("securitypolicyviolation", (e) =>
      console.error(`Content Security Policy: ${e.violatedDirective} ${e.blockedURI}`),
    ),
  );
  const response = (await page.goto("/?state=ny&by=name&q=inc"))!;
  const headers = response.headers();
  expect(headers["content-security-policy"]).toContain("script-src 'self';");
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("no-referrer");
  expect(headers["x-powered-by"]).toBeUndefined();
  expect(headers["access-control-allow-origin"]).toBeUndefined();

  await results(page).getByRole("link").first().click();
  await expect(page.getByRole("button", { name: "Copy link" })).toBeVisible();
  expect(violations).toEqual([]);
});
