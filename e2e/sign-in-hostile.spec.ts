import { expect, test, type Page } from "@playwright/test";
import { E2E_PASSWORD } from "./accounts.ts";
import { MARIA, OIDC_MEMBER } from "./global-setup.ts";

// Issue 44: a sign-in link whose `next` a browser would read as another host (it drops tabs, CR and LF, and reads a
// backslash as a slash) signs in and stays on the app, through the identity provider and through the password form.
const APP = process.env.E2E_REAL_APP_URL!;
const HOSTILE = ["/%09/evil.example", "/%0A/evil.example", "/%5C/evil.example"];
test.use({ baseURL: APP, storageState: { cookies: [], origins: [] } });

/**
 * Every page the browser sets out for that is not on this machine (the app and the provider are both on
 * 127.0.0.1); the provider's own pages load a web font from elsewhere, which is no navigation.
 */
function leaving(page: Page): string[] {
  const elsewhere: string[] = [];
  page.on("request", (request) => {
    if (request.isNavigationRequest() && new URL(request.url()).hostname !== "127.0.0.1") elsewhere.push(request.url());
  });
  return elsewhere;
}

for (const next of HOSTILE) {
  test(`the identity provider signs in with next=${next} and returns to the app's home page`, async ({ page }) => {
    const elsewhere = leaving(page);
    // The link as an attacker would send it: straight to the app's route that starts the round trip.
    await page.goto(`/api/sign-in/oidc?next=${next}`);
    await page.locator("input[name=login]").fill(OIDC_MEMBER.email);
    await page.locator("input[name=password]").fill("anything: the provider's development login");
    await page.getByRole("button", { name: "Sign-in" }).click();
    await page.getByRole("button", { name: "Continue" }).click();

    await expect(page).toHaveURL(`${APP}/`);
    await expect(page.locator(".site-header__account")).toContainText(OIDC_MEMBER.name);
    expect(elsewhere).toEqual([]);
  });

  test(`the password form signs in with next=${next} and returns to the app's home page`, async ({ page }) => {
    const elsewhere = leaving(page);
    await page.goto(`/sign-in?next=${next}`);
    await page.getByLabel("Email").fill(MARIA.email);
    await page.getByLabel("Password").fill(E2E_PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();

    await expect(page).toHaveURL(`${APP}/`);
    await expect(page.locator(".site-header__account")).toContainText(MARIA.name);
    await expect(page.getByText("Something went wrong")).toHaveCount(0);
    expect(elsewhere).toEqual([]);
  });
}

test("a next that only spells those characters, encoded once more, is a page of the app", async ({ page }) => {
  const elsewhere = leaving(page);
  await page.goto(`/sign-in?next=${encodeURIComponent("/%09/evil.example")}`);
  await page.getByLabel("Email").fill(MARIA.email);
  await page.getByLabel("Password").fill(E2E_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();

  await expect(page).toHaveURL(`${APP}/%09/evil.example`);
  await expect(page.locator(".site-header__account")).toContainText(MARIA.name);
  expect(elsewhere).toEqual([]);
});
