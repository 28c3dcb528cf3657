import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { z } from "zod/mini";
import { StatesResponseSchema } from "../src/contract/envelopes.ts";

// What a clerk sees of the team's coverage on the real state exports (E2E_REAL_*, see global-setup.ts).
test.use({ baseURL: process.env.E2E_REAL_APP_URL });

/** The states the real key covers, as the service itself says: what the page must show. */
async function coveredStates() {
  const response = await fetch(`${process.env.E2E_REAL_API_URL}/v2/states`, {
    headers: { Authorization: `Bearer ${process.env.E2E_REAL_API_KEY}` },
  });
  if (!response.ok) throw new Error(`/v2/states: HTTP ${response.status}`);
  return z.parse(StatesResponseSchema, await response.json()).data;
}

const map = (page: Page) => page.getByRole("group", { name: "Map of the states by the age of their newest data" });

test("the Data page shows each covered state on the map and in the table; a state on the map opens its search", async ({
  page,
}) => {
  const states = await coveredStates();
  expect(states.map((s) => s.state).sort()).toEqual([
    "ca",
    "co",
    "dc",
    "ga",
    "ky",
    "ma",
    "md",
    "mi",
    "nj",
    "ny",
    "pa",
    "tx",
    "wa",
  ]);

  await page.goto("/");
  await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Data" }).click();
  await expect(page).toHaveURL("/data");
  await expect(page.getByRole("heading", { level: 1, name: "Data" })).toBeFocused();

  await expect(map(page).getByRole("link")).toHaveCount(states.length);
  await expect(map(page).getByRole("img")).toHaveCount(51 - states.length);
  await expect(
    map(page).getByRole("img", {
      name: "Alabama is not covered: License Lookup has no Alabama records for your team.",
    }),
  ).toBeVisible();
  const table = page.getByRole("table");
  for (const state of states) {
    await expect(map(page).getByRole("link", { name: new RegExp(`^${state.name}: newest data as of `) })).toBeVisible();
    const row = table.getByRole("row").filter({ has: page.getByRole("rowheader", { name: `Search ${state.name}` }) });
    await expect(row.getByRole("cell").nth(1)).toHaveText(state.records.toLocaleString("en-US"));
    for (const source of state.sources.filter((s) => s.records > 0)) await expect(row).toContainText(source.coverage);
  }
  // The 50 states and DC, less those covered.
  await expect(page.getByText(`Not covered for your team (${51 - states.length}):`, { exact: false })).toBeVisible();

  // California is big enough that the middle of its shape is California.
  await map(page)
    .getByRole("link", { name: /^California:/ })
    .click();
  await expect(page).toHaveURL("/?state=ca&by=name");
  await expect(page.getByLabel("State")).toHaveValue("ca");
  await expect(page.locator("#search-state-note")).toContainText(
    "Covers licenses whose status changed between 2023-05-09 and 2024-04-01",
  );
});

test("the state picker leads to the Data page, and the map's states can be reached from the keyboard", async ({
  page,
}) => {
  await page.goto("/?state=ny");
  await page.getByRole("link", { name: "Every state’s data, and how old it is" }).click();
  await expect(page).toHaveURL("/data");
  const newYork = map(page).getByRole("link", { name: /^New York:/ });
  await newYork.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL("/?state=ny&by=name");
});

test("on a 390-px phone the Data page fits the screen's width", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/data");
  await expect(map(page)).toBeVisible();
  await expect(page.getByRole("table")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test("axe finds no violations on the Data page", async ({ page }) => {
  await page.goto("/data");
  await expect(map(page)).toBeVisible();
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual(
    [],
  );
});
