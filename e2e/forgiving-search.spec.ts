import { expect, test, type Page } from "@playwright/test";

// What a clerk typing names and numbers sees on the real state exports (E2E_REAL_*, see global-setup.ts).
test.use({ baseURL: process.env.E2E_REAL_APP_URL });

const results = (page: Page) => page.getByRole("list", { name: "Matching licenses" });
const term = (page: Page, label: string) => page.getByRole("searchbox", { name: label });

test("typing “dead rab” in New York shows Dead Rabbit Tavern without Enter, the cursor still in the box", async ({
  page,
}) => {
  await page.goto("/?state=ny");
  await term(page, "Business or owner name").pressSequentially("dead rab");
  const item = results(page)
    .getByRole("listitem")
    .filter({ hasText: /dead rabbit tavern/i });
  await expect(item.first()).toBeVisible();
  // Every word as typed starts a word of the name: no close-match mark.
  await expect(item.first()).not.toContainText("close match");
  await expect(page).toHaveURL("/?state=ny&by=name&q=dead+rab");
  await expect(term(page, "Business or owner name")).toBeFocused();

  // The keystrokes made one history entry: Back leaves the search for the blank form.
  await page.goBack();
  await expect(page).toHaveURL("/?state=ny");
  await expect(term(page, "Business or owner name")).toHaveValue("");
});

// The service forgives the typo (a word that starts no word of the data stands for its near words); the app marks it.
test("“Dead Rabit” in New York shows Dead Rabbit Tavern, marked as a close match for rabit", async ({ page }) => {
  await page.goto("/?state=ny");
  await term(page, "Business or owner name").pressSequentially("Dead Rabit");
  const item = results(page)
    .getByRole("listitem")
    .filter({ hasText: /dead rabbit tavern/i });
  await expect(item.first()).toContainText("close match for rabit");
});

// BLAK is a word in New Jersey (BLAK OPS OF BRUNSWICK LLC) that no record holds with CAT: still a typo.
test("“blak cat” in New Jersey shows Black Cat Tavern first, marked as a close match for blak", async ({ page }) => {
  await page.goto("/?state=nj");
  await term(page, "Business or owner name").pressSequentially("blak cat");
  const first = results(page).getByRole("listitem").first();
  await expect(first).toContainText(/black cat tavern/i);
  await expect(first).toContainText("close match for blak");
});

test("0101-33-5-3 in New Jersey number mode offers 0101-33-005-003, as a link, not a redirect", async ({ page }) => {
  await page.goto("/?state=nj&by=license");
  await term(page, "License number").fill("0101-33-5-3");
  await expect(page.getByText("Did you mean 0101-33-005-003?")).toBeVisible();

  // Opened as written, the license page says not found and offers the same.
  await page.getByRole("button", { name: "Open license" }).click();
  await expect(page).toHaveURL("/license/nj/0101-33-5-3");
  await expect(page.getByRole("region", { name: "Verdict" })).toContainText("not found");
  await page.getByRole("link", { name: "0101-33-005-003" }).click();
  await expect(page).toHaveURL("/license/nj/0101-33-005-003");
  await expect(page.getByRole("region", { name: "Verdict" })).not.toContainText("not found");
});

test("a license number typed into the Name box is offered as a number lookup", async ({ page }) => {
  await page.goto("/?state=nj");
  await term(page, "Business or owner name").fill("0101-33-005-003");
  await page.getByRole("link", { name: "Look up license number 0101-33-005-003 in New Jersey" }).click();
  await expect(page).toHaveURL("/license/nj/0101-33-005-003");
  await expect(page.getByRole("region", { name: "Verdict" })).toBeVisible();
  await page.goBack();
  await expect(term(page, "License number")).toHaveValue("0101-33-005-003");
});
