import { expect, test, type Page } from "@playwright/test";
import { apiLicense, DEMO, telltaleWord } from "./service.ts";

const nameBox = (page: Page) => page.getByRole("searchbox", { name: "Business or owner name" });

test.describe("focus", () => {
  test("after Enter the results heading takes the focus without a ring; a control reached by Tab keeps its ring", async ({
    page,
  }) => {
    const word = telltaleWord((await apiLicense(DEMO.state, DEMO.license))!.business).toLowerCase();
    await page.goto("/?state=ny");
    await nameBox(page).fill(word);
    await nameBox(page).press("Enter");

    const heading = page.getByRole("heading", { name: `Results for “${word}” in New York` });
    await expect(heading).toBeFocused();
    const look = await heading.evaluate((el) => ({
      outline: getComputedStyle(el).outlineStyle,
      bar: getComputedStyle(el, "::before").backgroundColor,
    }));
    expect(look.outline).toBe("none");
    // The bar beside it, in the accent colour (#1d5fa8): the focus is there, and looks meant to be.
    expect(look.bar).toBe("rgb(29, 95, 168)");

    await page.keyboard.press("Shift+Tab");
    const search = page.getByRole("button", { name: "Search" });
    await expect(search).toBeFocused();
    const ring = await search.evaluate((el) => [getComputedStyle(el).outlineStyle, getComputedStyle(el).outlineWidth]);
    expect(ring).toEqual(["solid", "3px"]);
  });

  test("choosing a mode with the mouse puts the cursor in the box, its text selected", async ({ page }) => {
    await page.goto("/?state=ny&by=name&q=tavern");
    await page.getByRole("radio", { name: "Address" }).click();
    const box = page.getByRole("searchbox", { name: "Street address" });
    await expect(box).toBeFocused();
    await page.keyboard.type("main");
    await expect(box).toHaveValue("main");
  });
});

test.describe("long unbroken strings wrap: the page is never wider than the window", () => {
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 360, height: 740 },
  ]) {
    test.describe(`at ${viewport.width} px`, () => {
      test.use({ viewport });

      test("a license link with a 300-digit number", async ({ page }) => {
        await page.goto(`/license/ny/${"9".repeat(300)}`);
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        await expectNoSidewaysScroll(page);
      });

      test("a search link with a 300-character word, a 100-character one, and a 300-digit one", async ({ page }) => {
        await page.goto(`/?state=ny&by=name&q=${"x".repeat(300)}`);
        // The search refuses a term that long, and says so; the page must still fit.
        await expect(page.getByRole("alert")).toContainText("The search in this link was not run.");
        await expectNoSidewaysScroll(page);

        // The longest term it runs: the heading and the no-results advice repeat it.
        await page.goto(`/?state=ny&by=name&q=${"x".repeat(100)}`);
        await expect(page.getByText("No licenses found.")).toBeVisible();
        await expectNoSidewaysScroll(page);

        await page.goto(`/?state=ny&by=name&q=${"9".repeat(300)}`);
        await expect(page.getByRole("link", { name: /^Look up license number 9+ in New York$/ })).toBeVisible();
        await expectNoSidewaysScroll(page);
      });
    });
  }
});

async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    window: window.innerWidth,
  }));
  expect(widths.page).toBeLessThanOrEqual(widths.window);
}
