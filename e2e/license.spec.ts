import { expect, test } from "@playwright/test";
import { licenseDates } from "../src/contract/license.ts";
import { apiLicense, apiStatus, DEMO } from "./service.ts";

function daysFromToday(iso: string): number {
  const now = new Date();
  const today = Date.UTC(now.getFullYear(), now.getMonth(), now.getDate());
  return Math.round((Date.parse(iso) - today) / 86_400_000);
}

test("a pasted link opens cold, leading zeros kept, with every field and the expiry state", async ({ page }) => {
  const demo = (await apiLicense(DEMO.state, DEMO.license))!;
  await page.goto(`/license/${DEMO.state}/${DEMO.license}`);

  await expect(page.getByRole("heading", { level: 1 })).toHaveText(demo.business);
  await expect(page).toHaveTitle(new RegExp(DEMO.license));
  const main = page.getByRole("main");
  for (const text of [
    demo.license,
    demo.owner,
    demo.address.line_1,
    demo.address.city,
    demo.address.county,
    demo.details.type,
  ]) {
    await expect(main).toContainText(text);
  }
  if (demo.phone) await expect(main).toContainText(demo.phone);
  await expect(main.getByText(demo.status, { exact: true }).first()).toBeVisible();

  const { expires } = licenseDates(demo);
  const days = expires === null ? null : daysFromToday(expires);
  if (days === null) await expect(page.getByText("No expiry date published")).toBeVisible();
  else if (days < 0) await expect(page.getByText(/^Expired on /)).toBeVisible();
  else if (days <= 60) await expect(page.getByText(/^Expires (today|in \d+ days?)/)).toBeVisible();
  else await expect(page.getByText(/^Expire/)).toHaveCount(0);
});

test("copy link gives a link that opens the same page in a fresh tab", async ({ page, context, browser }) => {
  const demo = (await apiLicense(DEMO.state, DEMO.license))!;
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto(`/?state=ny&by=address&q=${encodeURIComponent(demo.address.line_1)}`);
  await page.getByRole("link", { name: demo.business }).first().click();
  await page.getByRole("button", { name: "Copy link" }).click();
  await expect(page.getByText("Link copied.")).toBeVisible();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toBe(page.url());

  const fresh = await browser.newContext();
  const tab = await fresh.newPage();
  await tab.goto(link);
  await expect(tab.getByRole("heading", { level: 1 })).toHaveText(demo.business);
  await fresh.close();
});

test("a number the service does not hold gets a not-found page naming it exactly as typed", async ({ page }) => {
  const number = "0099/7 #12";
  expect(await apiLicense("ny", number)).toBeNull();

  await page.goto("/?state=ny");
  await page.getByRole("radio", { name: "License number" }).check();
  await page.getByRole("searchbox", { name: "License number" }).fill(number);
  await page.getByRole("button", { name: "Open license" }).click();

  await expect(page).toHaveURL(`/license/ny/${encodeURIComponent(number)}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("License not found");
  await expect(page.getByText("New York has no license numbered")).toHaveText(
    `New York has no license numbered ${number}.`,
  );
  await page.reload();
  await expect(page.getByText("New York has no license numbered")).toHaveText(
    `New York has no license numbered ${number}.`,
  );
});

test("a state the key does not cover is shown as unavailable", async ({ page }) => {
  expect(await apiStatus("/v2/search?state=nj&name=inc")).toBe(404);

  await page.goto("/");
  await expect(page.getByRole("option", { name: "New Jersey (NJ) – unavailable" })).toBeDisabled();
  await expect(page.getByRole("option", { name: "New York (NY)" })).toBeEnabled();

  await page.goto(`/license/nj/${DEMO.license}`);
  await expect(page.getByRole("heading", { name: "New Jersey is not available" })).toBeVisible();
  await page.getByRole("link", { name: "Pick another state" }).click();
  await expect(page.getByLabel("State")).toBeVisible();

  await page.goto("/?state=nj&by=name&q=inc");
  await expect(page.getByRole("alert")).toContainText("New Jersey is not available");
  await page.getByRole("button", { name: "Choose another state" }).click();
  await expect(page.getByLabel("State")).toBeFocused();
});

test("printed, the page is an audit record: the license, its URL, when it was retrieved and updated", async ({
  page,
}) => {
  const demo = (await apiLicense(DEMO.state, DEMO.license))!;
  await page.goto(`/license/${DEMO.state}/${DEMO.license}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(demo.business);
  await page.emulateMedia({ media: "print" });

  await expect(page.getByText("License Lookup · audit record")).toBeVisible();
  await expect(page.getByRole("banner")).toBeHidden();
  await expect(page.getByRole("button", { name: "Copy link" })).toBeHidden();
  await expect(page.getByRole("button", { name: "Print record" })).toBeHidden();
  const record = page.getByRole("region", { name: "Record" });
  await expect(record).toContainText(page.url());
  await expect(record).toContainText(demo.updated_at);
  await expect(record).toContainText(`Retrieved${new Date().toLocaleDateString("en-US", { dateStyle: "long" })}`);
  await expect(page.getByRole("region", { name: "Licensee" })).toContainText(demo.owner);
});

test("an unknown path gets a not-found page with a way back", async ({ page }) => {
  await page.goto(`/license/zz/${DEMO.license}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
  await page.goto("/no/such/page");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
  await page.getByRole("link", { name: "Go to the search" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Find a liquor license");
});
