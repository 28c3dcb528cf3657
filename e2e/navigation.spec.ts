import { gzipSync } from "node:zlib";
import { expect, test, type Page } from "@playwright/test";
import { apiSearch, DEMO } from "./service.ts";

const results = (page: Page) => page.getByRole("list", { name: "Matching licenses" });

/** A term the demo data answers with a full page of 10: enough results to scroll. */
async function fullPageTerm(): Promise<string> {
  for (const candidate of ["inc", "llc", "corp", "e", "a"]) {
    if ((await apiSearch("ny", "name", candidate)).length === 10) return candidate;
  }
  throw new Error("no term with 10 results in the demo data");
}

for (const [name, path] of [
  ["the search page", "/"],
  ["a license page opened from a link", `/license/${DEMO.state}/${DEMO.license}`],
] as const) {
  test(`${name} loads at most 125 kB of JavaScript (gzipped) before it shows`, async ({ page }) => {
    const scripts: Promise<Buffer>[] = [];
    page.on("response", (response) => {
      if (response.request().resourceType() === "script") scripts.push(response.body());
    });
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const bodies = await Promise.all(scripts);
    expect(bodies.length).toBeGreaterThan(0);
    const kB = bodies.reduce((total, body) => total + gzipSync(body, { level: 9 }).length, 0) / 1000;
    expect(kB, `${bodies.length} scripts`).toBeLessThanOrEqual(125);
  });
}

test("a license opened from the results starts at the top; Back returns to the same place in the list", async ({
  page,
}) => {
  await page.setViewportSize({ width: 800, height: 500 });
  await page.goto(`/?state=ny&by=name&q=${await fullPageTerm()}`);
  const last = results(page).getByRole("listitem").last();
  await last.scrollIntoViewIfNeeded();
  const listScroll = await page.evaluate(() => window.scrollY);
  expect(listScroll).toBeGreaterThan(200);

  await last.getByRole("link").first().click();
  await expect(page.getByRole("region", { name: "Verdict" })).toBeVisible();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);

  await page.goBack();
  await expect(results(page).getByRole("listitem")).toHaveCount(10);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(listScroll);
});

test("while the next page is on its way, the results stay on screen under a loading bar", async ({ page }) => {
  await page.goto(`/?state=ny&by=name&q=${await fullPageTerm()}`);
  await expect(results(page).getByRole("listitem")).toHaveCount(10);

  // The results hold the record already; the license page's code is held back until the test has looked.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/license-route-[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await results(page).getByRole("listitem").first().getByRole("link").first().click();

  await expect(page.getByRole("progressbar", { name: "Loading page" })).toBeVisible();
  await expect(results(page)).toBeVisible();
  release();
  await expect(page.getByRole("region", { name: "Verdict" })).toBeVisible();
  await expect(page.getByRole("progressbar", { name: "Loading page" })).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
});
