import { expect, test, type Browser } from "@playwright/test";
import { ADMIN, AUDITOR, MARIA, OIDC_MEMBER } from "./global-setup.ts";
import { E2E_PASSWORD, signInAs } from "./accounts.ts";

// Signing in, the record of checks and roles, on the production build over the real state exports (E2E_REAL_*).
const APP = process.env.E2E_REAL_APP_URL!;
const LICENSE = "/license/ny/1268007";
test.use({ baseURL: APP, storageState: { cookies: [], origins: [] }, timezoneId: "America/New_York" });

async function freshPage(browser: Browser) {
  const context = await browser.newContext({
    baseURL: APP,
    storageState: { cookies: [], origins: [] },
    timezoneId: "America/New_York",
  });
  return context.newPage();
}

test("a pasted license link leads to sign-in and back; the check is on record with a receipt that prints", async ({
  page,
}) => {
  await page.goto(LICENSE);
  await expect(page).toHaveURL(`/sign-in?next=${encodeURIComponent(LICENSE)}`);
  await page.getByLabel("Email").fill(MARIA.email);
  await page.getByLabel("Password").fill(E2E_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();

  await expect(page).toHaveURL(LICENSE);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("DEAD RABBIT TAVERN");
  await expect(page.locator(".site-header__account")).toContainText("Maria Lopez");
  const recorded = page.getByRole("link", { name: "Recorded in Checks" });
  await expect(recorded).toBeVisible();

  await page.getByRole("link", { name: "Checks", exact: true }).click();
  const row = page.getByRole("row").filter({ hasText: "NY 1268007" }).first();
  await expect(row).toContainText(MARIA.email);
  await expect(row).toContainText("check");
  await row.getByRole("link", { name: /^Receipt of entry/ }).click();

  const sentence = page.locator(".receipt__sentence");
  await expect(sentence).toHaveText(
    new RegExp(
      `^Checked by Maria Lopez \\(${MARIA.email.replace(/\./g, "\\.")}\\) on [A-Z][a-z]+ \\d{1,2}, \\d{4} at \\d{2}:\\d{2} E[SD]T: ` +
        "CHECK\\. Expires [A-Z][a-z]+ \\d{1,2}, \\d{4}, after our data of .*: it may have been renewed.*Source: New York State Liquor Authority, [\\w.-]+ " +
        "\\(SHA-256 [0-9a-f]{64}\\), as of [A-Z][a-z]+ \\d{1,2}, \\d{4}\\.$",
    ),
  );
  await page.evaluate(() => {
    window.print = () => document.body.setAttribute("data-printed", "yes");
  });
  await page.getByRole("button", { name: "Print" }).click();
  await expect(page.locator("body")).toHaveAttribute("data-printed", "yes");
  await page.emulateMedia({ media: "print" });
  await expect(page.locator(".site-header")).toBeHidden();
  await expect(sentence).toBeVisible();
  await expect(page.getByRole("button", { name: "Print" })).toBeHidden();
});

test("an auditor reads everyone's checks and the watchlist, and cannot add to it", async ({ page, browser }) => {
  // Maria's check, so that there is another person's entry to read.
  const maria = await freshPage(browser);
  await signInAs(maria, APP, MARIA.email);
  await maria.goto(LICENSE);
  await expect(maria.getByRole("link", { name: "Recorded in Checks" })).toBeVisible();
  await maria.context().close();

  await signInAs(page, APP, AUDITOR.email);
  await page.goto("/checks");
  await expect(page.getByRole("row").filter({ hasText: MARIA.email }).first()).toBeVisible();

  await page.goto(LICENSE);
  await expect(page.getByRole("link", { name: "Recorded in Checks" })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Watch/ })).toHaveCount(0);
  await page.goto("/watchlist");
  await expect(page.getByText("Auditors can read the watchlist but not change it")).toBeVisible();
  // The server refuses it too, whatever the page offers.
  const put = await page.request.put(`${APP}/api/watchlist/ny/1268007`);
  expect(put.status()).toBe(403);
  expect((await put.json()) as unknown).toMatchObject({ status: 403, detail: expect.stringContaining("auditor") });
});

test("the organisation's identity provider signs in an account added beforehand, and refuses anyone else", async ({
  page,
  browser,
}) => {
  await page.goto(LICENSE);
  await page.getByRole("link", { name: "Sign in with Example Okta" }).click();
  await page.locator("input[name=login]").fill(OIDC_MEMBER.email);
  await page.locator("input[name=password]").fill("anything: the provider's development login");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(LICENSE);
  await expect(page.locator(".site-header__account")).toContainText(OIDC_MEMBER.name);

  const stranger = await freshPage(browser);
  await stranger.goto("/sign-in");
  await stranger.getByRole("link", { name: "Sign in with Example Okta" }).click();
  await stranger.locator("input[name=login]").fill("stranger@elsewhere.example");
  await stranger.locator("input[name=password]").fill("anything");
  await stranger.getByRole("button", { name: "Sign-in" }).click();
  await stranger.getByRole("button", { name: "Continue" }).click();
  await expect(stranger).toHaveURL(/\/sign-in\?error=not-allowed/);
  await expect(stranger.getByRole("alert")).toContainText("your account may not use License Lookup");
  expect((await stranger.request.get(`${APP}/api/session`)).status()).toBe(401);
  await stranger.context().close();
});

test("an administrator manages users, and sees that the record's chain holds", async ({ page }) => {
  await signInAs(page, APP, ADMIN.email);
  await page.goto("/users");
  await expect(page.getByRole("row").filter({ hasText: AUDITOR.email })).toContainText("auditor");
  await page.goto("/checks");
  await expect(page.getByText(/The record is intact/)).toBeVisible();
});
