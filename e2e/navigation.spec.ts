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
    // The page notes the instant its heading arrives; what it asks for after (code fetched once the page has
    // painted, such as recording the check) does not hold the page up, and is not counted.
    await page.addInitScript(() => {
      new MutationObserver((_, observer) => {
        if (!document.querySelector("main h1")) return;
        (window as unknown as { shownAt: number }).shownAt = performance.timeOrigin + performance.now();
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    const scripts: { startedAt: number; body: Promise<Buffer> }[] = [];
    page.on("response", (response) => {
      const request = response.request();
      if (request.resourceType() === "script") {
        scripts.push({ startedAt: request.timing().startTime, body: response.body() });
      }
    });
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const shownAt = await page.evaluate(() => (window as unknown as { shownAt: number }).shownAt);
    const bodies = await Promise.all(scripts.filter((s) => s.startedAt <= shownAt).map((s) => s.body));
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
