import { expect, test, type Page } from "@playwright/test";
import { generateLicenses } from "../server/data/demo/generate-licenses.ts";
import { licenseDates } from "../src/contract/license.ts";
import { formatIsoDate as longDate } from "../src/contract/calendar-date.ts";
import { formatUpdatedAt } from "../src/shared/dates.ts";
import { apiLicense, apiStatus, DEMO } from "./service.ts";

/** The text beside a label of the license page's facts: a value under the wrong label fails. */
function fact(page: Page, term: string) {
  return page.locator(".facts__row", { has: page.locator("dt", { hasText: new RegExp(`^${term}$`) }) }).locator("dd");
}

/** Noon, `days` after a calendar date: the browser's clock for a test about that date. */
function noonAfter(iso: string, days: number): Date {
  return new Date(Date.parse(`${iso}T12:00:00Z`) + days * 86_400_000);
}

test("a pasted link opens cold, leading zeros kept, with every field under its label", async ({ page }) => {
  const demo = (await apiLicense(DEMO.state, DEMO.license))!;
  await page.goto(`/license/${DEMO.state}/${DEMO.license}`);

  await expect(page.getByRole("heading", { level: 1 })).toHaveText(demo.business);
  await expect(page).toHaveTitle(new RegExp(DEMO.license));
  await expect(fact(page, "Number")).toHaveText(DEMO.license);
  await expect(fact(page, "Business")).toHaveText(demo.business);
  await expect(fact(page, "Owner")).toHaveText(demo.owner);
  await expect(fact(page, "Phone")).toHaveText(demo.phone ?? "None given");
  await expect(fact(page, "Address")).toContainText(demo.address.line_1);
  await expect(fact(page, "Address")).toContainText(`${demo.address.city}, ${demo.address.state} ${demo.address.zip}`);
  await expect(fact(page, "County")).toHaveText(demo.address.county);
  await expect(fact(page, "Status")).toContainText(demo.status);
  await expect(fact(page, "Type")).toContainText(demo.details.type);
});

test.describe("the expiry notice follows the browser's date", () => {
  test("past an expiry that comes after the data's date: check, as it may have been renewed", async ({ page }) => {
    const demo = (await apiLicense(DEMO.state, DEMO.license))!;
    const expires = licenseDates(demo).expires!;
    await page.clock.setFixedTime(noonAfter(expires, 1));
    await page.goto(`/license/${DEMO.state}/${DEMO.license}`);
    await expect(page.getByRole("region", { name: "Verdict" })).toContainText(
      new RegExp(
        `Expires ${longDate(expires)}, after our data of [A-Z][a-z]+ \\d{1,2}, \\d{4}: it may have been renewed`,
      ),
    );
    await expect(page.getByRole("region", { name: "Verdict" }).locator(".verdict")).toHaveText("check");
  });

  test("within 60 days: a notice with the days left", async ({ page }) => {
    const expires = licenseDates((await apiLicense(DEMO.state, DEMO.license))!).expires!;
    await page.clock.setFixedTime(noonAfter(expires, -30));
    await page.goto(`/license/${DEMO.state}/${DEMO.license}`);
    await expect(page.getByText(`Expires in 30 days, on ${longDate(expires)}`)).toBeVisible();
  });

  test("further off: no notice", async ({ page }) => {
    const expires = licenseDates((await apiLicense(DEMO.state, DEMO.license))!).expires!;
    await page.clock.setFixedTime(noonAfter(expires, -61));
    await page.goto(`/license/${DEMO.state}/${DEMO.license}`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(fact(page, "Expires")).toHaveText(longDate(expires));
    await expect(page.getByText(/^(Expired on|Expires (in|today))/)).toHaveCount(0);
  });

  test("an application with no expiry: pending, and the date marked as not published", async ({ page }) => {
    // A pending application in the demo data (the seed global-setup uses): it has no expiry.
    const pending = [...generateLicenses("ny", 2000)].find((r) => r.status === "pending")!;
    expect(licenseDates((await apiLicense("ny", pending.license))!).expires).toBeNull();
    await page.goto(`/license/ny/${pending.license}`);
    await expect(page.getByRole("region", { name: "Verdict" }).locator(".verdict")).toHaveText("pending");
    await expect(fact(page, "Expires")).toHaveText("Not published by the state");
  });
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
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`License ${number}`);
  await expect(page.getByRole("region", { name: "Verdict" })).toContainText("Not in our New York data");
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`License ${number}`);
  await expect(page.getByRole("region", { name: "Verdict" }).locator(".verdict")).toHaveText("not found");
});

test("a state the key does not cover is shown as not covered, in plain words", async ({ page }) => {
  expect(await apiStatus("/v2/search?state=nj&name=inc")).toBe(404);

  await page.goto("/");
  await expect(page.getByRole("option", { name: "New Jersey (NJ) – unavailable" })).toBeDisabled();
  await expect(page.getByRole("option", { name: "New York (NY)" })).toBeEnabled();

  await page.goto(`/license/nj/${DEMO.license}`);
  await expect(page.getByRole("region", { name: "Verdict" }).locator(".verdict")).toHaveText("not covered");
  await expect(page.getByRole("region", { name: "Verdict" })).toContainText("License Lookup has no New Jersey records");
  await page.getByRole("link", { name: "Search another state" }).click();
  await expect(page.getByLabel("State")).toBeVisible();

  await page.goto("/?state=nj&by=name&q=inc");
  await expect(page.getByRole("alert")).toContainText("New Jersey is not covered");
  await page.getByRole("button", { name: "Choose another state" }).click();
  await expect(page.getByLabel("State")).toBeFocused();
});

test("printed, the page is an audit record: the license, its URL, when it was retrieved and updated", async ({
  page,
}) => {
  const demo = (await apiLicense(DEMO.state, DEMO.license))!;
  await page.clock.setFixedTime(new Date("2026-11-22T15:04:05Z"));
  await page.goto(`/license/${DEMO.state}/${DEMO.license}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(demo.business);
  await page.emulateMedia({ media: "print" });

  await expect(page.getByText("License Lookup · audit record")).toBeVisible();
  await expect(page.getByRole("banner")).toBeHidden();
  await expect(page.getByRole("button", { name: "Copy link" })).toBeHidden();
  await expect(page.getByRole("button", { name: "Print record" })).toBeHidden();
  const record = page.getByRole("region", { name: "Record" });
  await expect(record).toContainText(page.url());
  await expect(fact(page, "Loaded into License Lookup")).toHaveText(`${formatUpdatedAt(demo.updated_at)} UTC`);
  await expect(fact(page, "Retrieved")).toHaveText(/^November 22, 2026, \d\d:04 [A-Z]+/);
  await expect(page.getByRole("region", { name: "Licensee" })).toContainText(demo.owner);
});

test("an unknown path gets a not-found page with a way back", async ({ page }) => {
  await page.goto(`/license/zz/${DEMO.license}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("No state “zz”");
  await page.goto("/no/such/page");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
  await page.getByRole("link", { name: "Go to the search" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Find a liquor license");
});

test.describe("on the real data (E2E_REAL_*, see global-setup.ts)", () => {
  test.use({ baseURL: process.env.E2E_REAL_APP_URL });

  test("NY 1268007, the 2019 extract's record, names the 2016 list its address comes from, on screen and printed", async ({
    page,
  }) => {
    await page.clock.setFixedTime(new Date("2026-11-22T12:00:00"));
    await page.goto("/license/ny/1268007");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("DEAD RABBIT TAVERN");
    const from2016 = "From the 2016 list (as of January 14, 2016)";
    await expect(fact(page, "Address")).toContainText("30 WATER STREET");
    await expect(fact(page, "Address")).toContainText(from2016);
    await expect(fact(page, "County")).toContainText(from2016);
    // The extract's own fields carry no note: they are the record's source's, as of its date.
    await expect(fact(page, "Business")).toHaveText("DEAD RABBIT TAVERN");
    await expect(fact(page, "Expires")).toHaveText("December 31, 2020");
    await expect(fact(page, "Data as of")).toContainText("July 30, 2019");
    await expect(fact(page, "Data as of")).toContainText("Address, county, type and description: January 14, 2016");
    await expect(page.getByRole("region", { name: "Verdict" })).toContainText(
      "The address, county, type and description are from the 2016 list (as of January 14, 2016): the list of July 30, 2019 does not give them.",
    );

    await page.emulateMedia({ media: "print" });
    await expect(fact(page, "Address").getByText(from2016)).toBeVisible();
    await expect(fact(page, "Source")).toContainText("Address, county, type and description: Liquor Authority");
  });
});
