import { expect, test, type Page } from "@playwright/test";

// The states added from the real exports of ../shared/data (E2E_REAL_*, see global-setup.ts), on
// the day these expectations were written: the clock is fixed so that they hold next year too.
test.use({ baseURL: process.env.E2E_REAL_APP_URL });
const TODAY = new Date("2026-11-26T12:00:00");

test.beforeEach(async ({ page }) => {
  await page.clock.setFixedTime(TODAY);
});

const verdictPanel = (page: Page) => page.getByRole("region", { name: "Verdict" });
const results = (page: Page) => page.getByRole("list", { name: "Matching licenses" });

test("the state picker lists each new state as available, and a state with no data as unavailable", async ({
  page,
}) => {
  await page.goto("/");
  const picker = page.getByLabel("State");
  for (const name of [
    "Georgia (GA)",
    "Pennsylvania (PA)",
    "Kentucky (KY)",
    "Michigan (MI)",
    "Colorado (CO)",
    "Maryland (MD)",
    "Washington (WA)",
    "Texas (TX)",
  ]) {
    const option = picker.getByRole("option", { name, exact: true });
    await expect(option, name).toBeEnabled();
  }
  await expect(picker.getByRole("option", { name: "Florida (FL) – unavailable" })).toBeDisabled();

  // Choosing one says what backs it, in plain words.
  await picker.selectOption("pa");
  await expect(page.locator("main")).toContainText("Pennsylvania Liquor Control Board");
});

test("a Pennsylvania license past an expiry later than its data (R142) reads check, with its agency and coverage", async ({
  page,
}) => {
  await page.goto("/license/pa/R142");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("MCGILLIN'S OLD ALE HOUSE EST. 1860 INC.");
  await expect(verdictPanel(page).locator(".verdict")).toHaveText("check");
  await expect(verdictPanel(page)).toContainText(
    "Expires October 31, 2025, after our data of June 9, 2025: it may have been renewed. Confirm with the Pennsylvania Liquor Control Board.",
  );
  await expect(page.locator("main")).toContainText("Philadelphia County only");
});

test("a Georgia search by name puts its license first: 40 Watt Club is 28585", async ({ page }) => {
  await page.goto("/?state=ga");
  await page.getByRole("searchbox", { name: "Business or owner name" }).pressSequentially("40 watt club");
  const first = results(page).getByRole("listitem").first();
  await expect(first).toContainText("40 WATT CLUB");
  await expect(first).toContainText("28585");
  await first.getByRole("link").click();
  await expect(page).toHaveURL("/license/ga/28585");
  await expect(verdictPanel(page)).toContainText("Georgia Department of Revenue");
});

test("a Texas permit named only in tax filings reads check, never valid, and sends the clerk to TABC", async ({
  page,
}) => {
  await page.goto("/license/tx/MB911490");
  await expect(verdictPanel(page).locator(".verdict")).toHaveText("check");
  await expect(verdictPanel(page)).toContainText("a tax record, not TABC");
});

test("New York 1268007 keeps its 2016 address and takes the 2019 list's dates; its history says what changed", async ({
  page,
}) => {
  await page.goto("/license/ny/1268007");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("DEAD RABBIT TAVERN");
  await expect(page.locator("main")).toContainText("30 WATER STREET");
  await expect(verdictPanel(page)).toContainText("Expires December 31, 2020, after our data of July 30, 2019");
  const history = page.getByRole("region", { name: "History" });
  await expect(history.locator("li.history__entry").first()).toContainText("December 31, 2020");
});
