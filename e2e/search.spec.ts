import { expect, test, type Page } from "@playwright/test";
import { apiLicense, apiSearch, DEMO, telltaleWord } from "./service.ts";

const results = (page: Page) => page.getByRole("list", { name: "Matching licenses" });
const term = (page: Page, label: string) => page.getByRole("searchbox", { name: label });

async function search(page: Page, by: "Name" | "Address", label: string, q: string) {
  await page.getByRole("radio", { name: by }).check();
  await term(page, label).fill(q);
  await page.getByRole("button", { name: "Search" }).click();
}

test("search by name lists what the service finds, the words marked, and takes focus to the results", async ({
  page,
}) => {
  const demo = (await apiLicense(DEMO.state, DEMO.license))!;
  const word = telltaleWord(demo.business).toLowerCase();
  const expected = await apiSearch("ny", "name", word);

  await page.goto("/");
  await page.getByLabel("State").selectOption("ny");
  await term(page, "Business or owner name").fill(word);
  await term(page, "Business or owner name").press("Enter");

  await expect(page).toHaveURL(`/?state=ny&by=name&q=${word}`);
  await expect(results(page).getByRole("heading")).toHaveText(expected.map((l) => l.business));
  for (const [i, license] of expected.entries()) {
    await expect(results(page).getByRole("listitem").nth(i)).toContainText(license.license);
  }
  await expect(results(page).locator("mark").first()).toHaveText(new RegExp(`^${word}$`, "i"));
  await expect(page.getByRole("status")).toContainText(
    expected.length === 10 ? "The first 10 matches" : `${expected.length} license`,
  );
  await expect(page.getByRole("heading", { name: `Results for “${word}” in New York` })).toBeFocused();
});

test("search by address finds the license at that address", async ({ page }) => {
  const demo = (await apiLicense(DEMO.state, DEMO.license))!;
  const street = demo.address.line_1.split(" ").slice(0, 2).join(" ").toLowerCase();
  const expected = await apiSearch("ny", "address", street);
  expect(expected.map((l) => l.license)).toContain(DEMO.license);

  await page.goto("/?state=ny");
  await search(page, "Address", "Street address", street);

  await expect(page).toHaveURL(`/?${new URLSearchParams({ state: "ny", by: "address", q: street })}`);
  await expect(results(page).getByRole("listitem")).toHaveCount(expected.length);
  const item = results(page).getByRole("listitem").filter({ hasText: DEMO.license });
  await expect(item).toContainText(demo.address.line_1);
  await item.getByRole("link", { name: demo.business }).click();
  await expect(page).toHaveURL(`/license/ny/${DEMO.license}`);
  await expect(page.getByRole("heading", { level: 1, name: demo.business })).toBeFocused();
});

test("the toggle changes what the box asks for, and a license number opens the license", async ({ page }) => {
  const demo = (await apiLicense(DEMO.state, DEMO.license))!;
  await page.goto("/?state=ny");
  await expect(term(page, "Business or owner name")).toBeVisible();

  await page.getByRole("radio", { name: "Address" }).check();
  await expect(term(page, "Street address")).toBeVisible();
  await expect(page.getByRole("button", { name: "Search" })).toBeVisible();

  await page.getByRole("radio", { name: "License number" }).check();
  await term(page, "License number").fill(DEMO.license);
  await page.getByRole("button", { name: "Open license" }).click();
  await expect(page).toHaveURL(`/license/ny/${DEMO.license}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(demo.business);
});

test("when exactly 10 come back, the page says they are the first 10, never how many there are", async ({ page }) => {
  // Short, common words: the first one the service answers with a full page of 10.
  let full: string | undefined;
  for (const candidate of ["inc", "llc", "corp", "e", "a"]) {
    if ((await apiSearch("ny", "name", candidate)).length === 10) {
      full = candidate;
      break;
    }
  }
  expect(full, "a term with 10 results in the demo data").toBeDefined();

  await page.goto(`/?state=ny&by=name&q=${full}`);
  await expect(results(page).getByRole("listitem")).toHaveCount(10);
  await expect(page.getByRole("status")).toHaveText("The first 10 matches, best first; there may be more.");
  await expect(page.getByText(/10 licenses found/)).toHaveCount(0);

  const demo = (await apiLicense(DEMO.state, DEMO.license))!;
  const few = await apiSearch("ny", "name", demo.business.toLowerCase());
  expect(few.length).toBeLessThan(10);
  await search(page, "Name", "Business or owner name", demo.business.toLowerCase());
  await expect(results(page).getByRole("listitem")).toHaveCount(few.length);
  await expect(page.getByRole("status")).toHaveText(`${few.length} license${few.length === 1 ? "" : "s"} found.`);
});

test("no results says so and suggests what to try", async ({ page }) => {
  const nothing = "qxzqxz";
  expect(await apiSearch("ny", "name", nothing)).toEqual([]);

  await page.goto(`/?state=ny&by=name&q=${nothing}`);
  await expect(
    page.getByText(`No license in New York has a business or owner name containing “${nothing}”.`),
  ).toBeVisible();
  await expect(page.getByRole("status")).toHaveText("No licenses found.");
  await page.getByRole("link", { name: "Search by address instead" }).click();
  await expect(page).toHaveURL(`/?state=ny&by=address&q=${nothing}`);
  await expect(page.getByText(`No license in New York has an address containing “${nothing}”.`)).toBeVisible();
});

test("back and forward restore each search, from the cache", async ({ page }) => {
  const demo = (await apiLicense(DEMO.state, DEMO.license))!;
  const name = telltaleWord(demo.business).toLowerCase();
  const street = demo.address.line_1.split(" ").slice(0, 2).join(" ").toLowerCase();
  // Searches answered: the parallel specs share one key, and a search the rate limit turns away
  // is asked again by the page once it may (its second request is the same search, not a refetch).
  let searches = 0;
  page.on("response", (response) => {
    if (response.url().includes("/v2/search") && response.ok()) searches += 1;
  });

  await page.goto("/?state=ny");
  await search(page, "Name", "Business or owner name", name);
  await expect(page.getByRole("heading", { name: `Results for “${name}” in New York` })).toBeVisible();
  await expect(results(page).getByRole("link").first()).toBeVisible();
  await search(page, "Address", "Street address", street);
  await expect(page.getByRole("heading", { name: `Results for “${street}” in New York` })).toBeVisible();
  await results(page).getByRole("link", { name: demo.business }).click();
  await expect(page.getByRole("heading", { level: 1, name: demo.business })).toBeVisible();
  expect(searches).toBe(2);

  await page.goBack();
  await expect(page.getByRole("heading", { name: `Results for “${street}” in New York` })).toBeVisible();
  await expect(page.getByRole("radio", { name: "Address" })).toBeChecked();
  await expect(term(page, "Street address")).toHaveValue(street);

  await page.goBack();
  await expect(page.getByRole("heading", { name: `Results for “${name}” in New York` })).toBeVisible();
  await expect(page.getByRole("radio", { name: "Name" })).toBeChecked();
  await expect(term(page, "Business or owner name")).toHaveValue(name);

  await page.goForward();
  await expect(page.getByRole("heading", { name: `Results for “${street}” in New York` })).toBeVisible();
  expect(searches).toBe(2);

  await page.reload();
  await expect(term(page, "Street address")).toHaveValue(street);
  await expect(results(page).getByRole("listitem").first()).toBeVisible();
});
