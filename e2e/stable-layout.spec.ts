import { expect, test as base, type Page } from "@playwright/test";

// A page opened from a link must not jump under the clerk's cursor as its record, verdict or results arrive:
// the layout shifts the browser reports (what Lighthouse sums as CLS) stay within 0.02. On the real exports
// (E2E_REAL_*, see global-setup.ts), with answers that arrive in the order a slow network brings them.
const test = base.extend({
  // With the window's scrollbar, as a clerk's browser has it (Playwright hides it): it appearing when the page
  // grows past the window moves the whole page sideways.
  launchOptions: [
    async ({ launchOptions }, use) => {
      await use({ ...launchOptions, ignoreDefaultArgs: ["--hide-scrollbars"] });
    },
    { scope: "worker" },
  ],
});
test.use({ baseURL: process.env.E2E_REAL_APP_URL });

const MAX_SHIFT = 0.02;
const VIEWPORTS = {
  desktop: { width: 1350, height: 940 },
  mobile: { width: 412, height: 823 },
};

/**
 * The page's code comes a little late (the frame painted before it shows first), its records later, and the
 * state's coverage and the watchlist later still: each arrival is a frame of its own that could move the page.
 */
async function arriveSlowly(page: Page) {
  const after = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  await page.route("**/assets/*.js", async (route) => {
    await after(150);
    await route.continue();
  });
  await page.route("**/v2/**", async (route) => {
    await after(route.request().url().endsWith("/v2/states") ? 900 : 400);
    await route.continue();
  });
  await page.route("**/api/watchlist/**", async (route) => {
    await after(900);
    await route.continue();
  });
  await page.addInitScript(() => {
    const seen = window as unknown as { layoutShift: number };
    seen.layoutShift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) {
        if (!entry.hadRecentInput) seen.layoutShift += entry.value;
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}

/**
 * Ten rows of four states, answered a state at a time: a state the key lacks at once, then the numbers of each
 * state, the near forms of one not found as written, and a row matched by its name.
 */
const LIST = [
  "State,License number,Business name",
  "NY,1268007",
  "MA,00780-RS-0116,Union Oyster House",
  "CA,574903",
  "NJ,0101-33-005-003,Black Cat Tavern",
  "NJ,0101-33-5-3",
  "MA,,Union Oyster House",
  "NY,2500672",
  "CA,414067",
  "Florida,123",
  "NJ,0102-32-104-007",
].join("\n");

/** Every shift since the page began to load, summed (no session windows: stricter than Lighthouse's CLS). */
async function layoutShift(page: Page): Promise<number> {
  // Two frames, so that the last arrival's shift, if any, has been reported.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  return page.evaluate(() => (window as unknown as { layoutShift: number }).layoutShift);
}

for (const [form, viewport] of Object.entries(VIEWPORTS)) {
  test.describe(`on a ${form} screen`, () => {
    test.use({ viewport });

    test("a license page holds still as its record, verdict and Watch button arrive", async ({ page }) => {
      await arriveSlowly(page);
      await page.goto("/license/ny/1268007");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("DEAD RABBIT TAVERN");
      await expect(page.getByRole("region", { name: "Verdict" }).locator(".verdict")).toHaveText("check");
      await expect(page.getByRole("button", { name: /^Watch/ })).toBeVisible();
      expect(await layoutShift(page)).toBeLessThanOrEqual(MAX_SHIFT);
    });

    test("a results page opened from a link holds still as its results and the state's coverage arrive", async ({
      page,
    }) => {
      await arriveSlowly(page);
      await page.goto("/?state=ny&by=name&q=dead+rabbit");
      await expect(page.getByRole("listitem").filter({ hasText: "1268007" })).toBeVisible();
      await expect(page.locator("#search-state-note")).toContainText("records from New York State Liquor Authority");
      expect(await layoutShift(page)).toBeLessThanOrEqual(MAX_SHIFT);
    });

    // Where the Verify button leaves the page, and scrolled down to the results, as a clerk watching them comes.
    for (const watching of [false, true]) {
      test(`a pasted list holds still while it is checked${watching ? ", watched from its results" : ""}`, async ({
        page,
      }) => {
        await arriveSlowly(page);
        await page.goto("/verify");
        await page.getByLabel("Licenses to verify").fill(LIST);
        await page.getByRole("button", { name: "Verify" }).click();
        if (watching) await page.locator("#verify-results-heading").evaluate((h) => h.scrollIntoView());
        await expect(page.getByRole("heading", { name: "10 rows verified" })).toBeVisible({ timeout: 15_000 });
        await expect(page.getByRole("button", { name: "Watch all found (7)" })).toBeEnabled();
        expect(await layoutShift(page)).toBeLessThanOrEqual(MAX_SHIFT);
        // Held still, and still truthful: the bar says the check is done, and every row is there.
        await expect(page.getByRole("status").filter({ hasText: /^Verified/ })).toHaveText("Verified 10 of 10 rows.");
        await expect(page.getByRole("table").locator("tbody tr")).toHaveCount(10);
      });
    }

    test("a license number not in the data holds still as its answer arrives", async ({ page }) => {
      await arriveSlowly(page);
      await page.goto("/license/ny/9999999");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("License 9999999");
      await expect(page.getByRole("region", { name: "Verdict" })).toContainText("Not in our New York data");
      expect(await layoutShift(page)).toBeLessThanOrEqual(MAX_SHIFT);
    });
  });
}

// On a window where the header takes two rows, whatever is below it keeps its place as the name signed in arrives
// (the empty corner's baseline once moved the header's second row, and the whole page, by 7 px).
test("the page below the header holds still as the signed-in name arrives, on a window where the header wraps", async ({
  page,
}) => {
  await page.setViewportSize({ width: 800, height: 600 });
  await page.route("**/api/session", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 600));
    await route.continue();
  });
  await page.addInitScript(() => {
    const tops = new Set<number>();
    (window as unknown as { mainTops: Set<number> }).mainTops = tops;
    const frame = () => {
      const main = document.querySelector("main");
      if (main) tops.add(Math.round(main.getBoundingClientRect().top + window.scrollY));
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  await page.goto("/");
  await expect(page.locator(".account__who")).toBeVisible();
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  expect(await page.evaluate(() => [...(window as unknown as { mainTops: Set<number> }).mainTops])).toHaveLength(1);
});
