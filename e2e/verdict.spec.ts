import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Locator, type Page } from "@playwright/test";

// The real exports of ../shared/data, served by a stack of their own (see global-setup.ts), on the
// day these expectations were written: the clock is fixed so that they hold next year too.
test.use({ baseURL: process.env.E2E_REAL_APP_URL });
const TODAY = new Date("2026-11-22T12:00:00");

test.beforeEach(async ({ page }) => {
  await page.clock.setFixedTime(TODAY);
});

/** Green, as a person sees it: the green channel well above the red and the blue. */
async function looksGreen(badge: Locator): Promise<boolean> {
  const colours = await badge.evaluate((el) => {
    const style = getComputedStyle(el);
    return [style.backgroundColor, style.color, style.borderTopColor];
  });
  return colours.some((colour) => {
    const [r = 0, g = 0, b = 0] = (colour.match(/\d+(\.\d+)?/g) ?? []).map(Number);
    return g > r + 40 && g > b + 20;
  });
}

async function noAxeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual(
    [],
  );
}

function verdictPanel(page: Page) {
  return page.getByRole("region", { name: "Verdict" });
}

const RENEWAL = (expires: string, asOf: string, agency: string) =>
  `Expires ${expires}, after our data of ${asOf}: it may have been renewed. Confirm with the ${agency}.`;

test("Dead Rabbit Tavern (NY 1268007) reads check, not expired, in results, on its page and on paper: its data predates its expiry", async ({
  page,
}) => {
  const renewal = RENEWAL("December 31, 2020", "July 30, 2019", "New York State Liquor Authority");
  await page.goto("/?state=ny&by=name&q=dead+rabbit");
  const row = page.getByRole("listitem").filter({ hasText: "1268007" });
  await expect(row.locator(".verdict")).toHaveText("check");
  // The 2019 statewide list's dates, over the 2016 list's.
  await expect(row).toContainText(renewal);
  await expect(row).toContainText("New York State Liquor Authority, data as of July 30, 2019");
  expect(await looksGreen(row.locator(".verdict"))).toBe(false);
  await noAxeViolations(page);

  await row.getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("DEAD RABBIT TAVERN");
  const badge = verdictPanel(page).locator(".verdict");
  await expect(badge).toHaveText("check");
  await expect(verdictPanel(page)).toContainText(renewal);
  expect(await looksGreen(badge)).toBe(false);
  await noAxeViolations(page);

  await page.emulateMedia({ media: "print" });
  await expect(badge).toBeVisible();
  await expect(badge).toHaveText("check");
  expect(await looksGreen(badge)).toBe(false);
  await expect(verdictPanel(page)).toContainText(renewal);
  await noAxeViolations(page);
});

test("Barcade (PA R2638) reads check with the renewal sentence in results, on its page and on paper", async ({
  page,
}) => {
  const renewal = RENEWAL("October 31, 2025", "June 9, 2025", "Pennsylvania Liquor Control Board");
  await page.goto("/?state=pa&by=name&q=barcade");
  const row = page.getByRole("listitem").filter({ hasText: "R2638" });
  await expect(row.locator(".verdict")).toHaveText("check");
  await expect(row).toContainText(renewal);

  await page.goto("/license/pa/R2638");
  const badge = verdictPanel(page).locator(".verdict");
  await expect(badge).toHaveText("check");
  await expect(verdictPanel(page)).toContainText(renewal);
  await page.emulateMedia({ media: "print" });
  await expect(badge).toHaveText("check");
  await expect(verdictPanel(page)).toContainText(renewal);
});

test("a license whose own data lists its expiry as passed (NY 1271483) still reads expired, never green", async ({
  page,
}) => {
  await page.goto("/license/ny/1271483");
  const badge = verdictPanel(page).locator(".verdict");
  await expect(badge).toHaveText("expired");
  await expect(verdictPanel(page)).toContainText(
    "Expired on December 31, 2015; the state’s record still says “active”.",
  );
  expect(await looksGreen(badge)).toBe(false);
});

test("a cancelled California license (574903) is inactive, with its status decoded", async ({ page }) => {
  await page.goto("/license/ca/574903");
  await expect(verdictPanel(page).locator(".verdict")).toHaveText("inactive");
  await expect(verdictPanel(page)).toContainText("Not in force: cancelled.");
  await expect(verdictPanel(page)).toContainText("California Department of Alcoholic Beverage Control");
  await expect(page.locator(".facts__row", { hasText: "Type" }).locator("dd")).toContainText(/\d+ \w/);
  await noAxeViolations(page);
});

test("Union Oyster House (MA 00780-RS-0116) is valid, with its source and as-of date on the page and on paper", async ({
  page,
}) => {
  await page.goto("/license/ma/00780-RS-0116");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("UNION OYSTER HOUSE");
  const badge = verdictPanel(page).locator(".verdict");
  await expect(badge).toHaveText("valid");
  expect(await looksGreen(badge)).toBe(true);
  const source =
    "Source: Massachusetts Alcoholic Beverages Control Commission, ABCC Active Retail Licenses, as of March 20, 2026.";
  await expect(verdictPanel(page)).toContainText(source);
  await expect(page.locator(".facts__row", { hasText: "Type" }).locator("dd")).toHaveText("RS Restaurant");
  await noAxeViolations(page);

  await page.emulateMedia({ media: "print" });
  await expect(badge).toHaveText("valid");
  await expect(verdictPanel(page)).toContainText(source);
  await expect(page.getByText("Loaded into License Lookup", { exact: true })).toBeVisible();
  await expect(page.locator(".facts__row", { hasText: "Retrieved" }).locator("dd")).toContainText("November 22, 2026");
  await noAxeViolations(page);
});

test("NY 1234567 is not found in our data, which the page says covers: the 2016 NYC list and the 2019 statewide one", async ({
  page,
}) => {
  await page.goto("/license/ny/1234567");
  await expect(verdictPanel(page).locator(".verdict")).toHaveText("not found");
  await expect(verdictPanel(page)).toContainText("Not in our New York data, which covers");
  await expect(verdictPanel(page)).toContainText("New York City on-premises liquor licenses only");
  await expect(verdictPanel(page)).toContainText("as of January 14, 2016");
  await expect(verdictPanel(page)).toContainText("active licenses of 57 classes, statewide, with no address");
  await expect(verdictPanel(page)).toContainText("as of July 30, 2019");
  await expect(verdictPanel(page)).toContainText("This does not mean the business is unlicensed.");
  await expect(verdictPanel(page).getByRole("link").filter({ hasNotText: "Recorded in Checks" })).toHaveAttribute(
    "href",
    /sla\.ny\.gov/,
  );
  await noAxeViolations(page);
});

test("a Florida link says not covered, in words a clerk can act on", async ({ page }) => {
  await page.goto("/license/fl/BEV2600123");
  await expect(verdictPanel(page).locator(".verdict")).toHaveText("not covered");
  await expect(verdictPanel(page)).toContainText("License Lookup has no Florida records for your team");
  await expect(page.locator("main")).not.toContainText(/API key/i);
  await noAxeViolations(page);
});
