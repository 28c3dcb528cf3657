import { expect, test, type Page } from "@playwright/test";

// What a clerk sees of a license's history on the real state exports (E2E_REAL_*, see global-setup.ts).
test.use({ baseURL: process.env.E2E_REAL_APP_URL });
const TODAY = new Date("2026-11-22T12:00:00");

const history = (page: Page) => page.getByRole("region", { name: "History" });
const entries = (page: Page) => history(page).locator("li.history__entry");

test.beforeEach(async ({ page }) => {
  await page.clock.setFixedTime(TODAY);
});

test("California 535296: cancelled on the first daily report that says so, 2023-05-09, in one entry", async ({
  page,
}) => {
  await page.goto("/license/ca/535296");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/KITCHEN THE/i);
  await expect(entries(page)).toHaveCount(1);
  await expect(entries(page).first()).toContainText("First reported on May 9, 2023");
  await expect(entries(page).first()).toContainText(/Type 47.*: cancelled, was active/);
  await expect(entries(page).first().locator("time")).toHaveAttribute("datetime", "2023-05-09");
});

test("California 578170: type 47 active and type 41 cancelled, each on its own first date, newest first", async ({
  page,
}) => {
  await page.goto("/license/ca/578170");
  await expect(entries(page)).toHaveCount(2);
  await expect(entries(page).nth(0)).toContainText("Changed on May 12, 2023");
  await expect(entries(page).nth(0)).toContainText(/Type 41.*: cancelled, was active/);
  await expect(entries(page).nth(1)).toContainText("First reported on May 10, 2023");
  await expect(entries(page).nth(1)).toContainText(/Type 47.*: active.*, was pending/);
});

test("printed, the audit record carries the history and its sources", async ({ page }) => {
  await page.goto("/license/ca/578170");
  await expect(entries(page)).toHaveCount(2);
  await page.emulateMedia({ media: "print" });
  await expect(history(page)).toBeVisible();
  await expect(entries(page).nth(0)).toBeVisible();
  await expect(history(page)).toContainText("ca_abc_daily_status_change_reports_2023-05-09_to_2024-04-01.tar.gz");
});

test("District Liquors opens from a pasted /license/dc/ABRA-000023: in all 16 lists, 2005 to 2016, without a gap", async ({
  page,
}) => {
  await page.goto("/license/dc/ABRA-000023");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("District Liquors");
  await expect(history(page).locator(".history__listings")).toHaveText(
    "Listed in all 16 lists from November 1, 2005 to August 4, 2016.",
  );
  await expect(entries(page)).toHaveCount(1);
  await expect(entries(page).first()).toContainText("First listed in the list of November 1, 2005");
});

test("a District license listed in August 2014 and not in July 2015 says no longer listed, never valid", async ({
  page,
}) => {
  await page.goto("/license/dc/ABRA-000214");
  const verdict = page.getByRole("region", { name: "Verdict" });
  await expect(verdict).toContainText("ABRA-000214 is no longer listed");
  await expect(verdict).toContainText("July 7, 2015");
  await expect(verdict.locator(".verdict")).not.toHaveText("valid");
  await expect(entries(page).first()).toContainText(
    "No longer listed as of the list of July 7, 2015 (last listed in the list of August 27, 2014); last listed as Big D Liquors",
  );
});
