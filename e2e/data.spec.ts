import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { z } from "zod/mini";
import { StatesResponseSchema } from "../src/contract/envelopes.ts";
import { serviceInstant } from "../src/coverage/time-ago.ts";
import { formatIsoDate } from "../src/contract/calendar-date.ts";
import { liveSources, newestFirst } from "../src/contract/record-source.ts";

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

const map = (page: Page) => page.getByRole("group", { name: "Map of the states by what their data is and how old" });

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
    await expect(
      map(page).getByRole("link", { name: new RegExp(`^${state.name}: (?:[a-z ]+; )?newest data as of `) }),
    ).toBeVisible();
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

test("the Data page gives each state's as-of and how it is updated, and the list the shrink guard refused, with its reason", async ({
  page,
}) => {
  const states = await coveredStates();
  const refusal = states.find((s) => s.state === "mi")!.last_refusal!;
  expect(refusal.file).toBe("Liquor_Licenses.csv");
  expect(refusal.reason).toMatch(/Liquor_Licenses\.csv would stop serving 98\d of the 1,966 licenses MI serves now/);
  // Two hours after the refusal, on the page's clock.
  await page.clock.setFixedTime(Date.parse(serviceInstant(refusal.refused_at)) + 2 * 3_600_000);
  await page.goto("/data");

  const row = (name: string) =>
    page
      .getByRole("table")
      .getByRole("row")
      .filter({ has: page.getByRole("rowheader", { name: `Search ${name}` }) });
  for (const state of states) {
    const asOf = newestFirst(liveSources(state))[0]!.as_of;
    await expect(row(state.name).getByRole("cell").first()).toContainText(asOf ? formatIsoDate(asOf) : "Not given");
    // Colorado and New Jersey were synced from the replay of their agencies (global-setup.ts); the rest by hand.
    if (state.state === "co" || state.state === "nj") continue;
    expect(state.feeds).toEqual([]);
    await expect(row(state.name).getByRole("cell").last()).toContainText("Updated by hand: not checked automatically.");
  }
  const michigan = row("Michigan").getByRole("cell").last();
  await expect(michigan).toContainText("Update refused 2 hours ago (");
  await expect(michigan).toContainText("Liquor_Licenses.csv. The records from before it are still served.");
  await expect(michigan).toContainText(refusal.reason);
  await expect(page.getByText("Updates to look at:").locator("..")).toContainText(
    "Michigan, New Jersey (see Updates below)",
  );

  // A license the refused list would have dropped is still served.
  await page.goto(`/license/mi/${process.env.E2E_REFUSED_LICENSE}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("DIAMOND LIQUOR");
});

test("the Data page tells apart the states whose data is not a license roster or covers part of the state", async ({
  page,
}) => {
  const states = await coveredStates();
  // Decided once, in src/contract/coverage-kind.ts, from the words each importer writes of what its files cover.
  // California's status changes and Colorado's recent approvals are no roster of the licenses in force either.
  const KINDS = {
    "not a license roster": ["Texas", "Washington", "California", "Colorado"],
    "part of the state only": ["Pennsylvania", "Kentucky", "Michigan", "Maryland"],
    "statewide license roster": ["Massachusetts", "New Jersey", "Georgia", "New York", "District of Columbia"],
  };
  const kindOf = (name: string) => Object.entries(KINDS).find(([, names]) => names.includes(name))![0];
  expect(states.map((s) => s.name).sort()).toEqual(Object.values(KINDS).flat().sort());
  expect(Object.fromEntries(states.map((s) => [s.state, s.kind]))).toMatchObject({
    tx: "not_a_roster",
    wa: "not_a_roster",
    pa: "part_of_state",
    ky: "part_of_state",
    mi: "part_of_state",
    md: "part_of_state",
  });

  await page.clock.setFixedTime(new Date("2026-11-28T10:00:00Z"));
  await page.goto("/data");
  // Each state's name on the map says what its data is and its date, as the table does beside its name.
  for (const state of states) {
    const asOf = newestFirst(liveSources(state))[0]!.as_of!;
    await expect(
      map(page).getByRole("link", {
        name: new RegExp(`^${state.name}: ${kindOf(state.name)}; newest data as of ${formatIsoDate(asOf)}, `),
      }),
    ).toBeVisible();
    await expect(page.getByRole("table").getByRole("rowheader", { name: `Search ${state.name}` })).toContainText(
      kindOf(state.name),
      { ignoreCase: true },
    );
  }
  await expect(page.getByRole("list", { name: "Map legend: what the data is" }).getByRole("listitem")).toHaveText([
    "Statewide license roster: 5 states",
    "Part of the state only (a county or a city): 4 states",
    "Not a license roster (tax filings, notices, changes): 4 states",
  ]);

  // Pointed at, Texas is named under the map; its tax filings are fresh, and still no roster.
  await map(page)
    .getByRole("link", { name: /^Texas:/ })
    .hover();
  await expect(page.locator(".coverage-map__caption")).toHaveText(
    /^Texas: not a license roster; newest data as of January 25, 2026, under a year old$/,
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

test("the Data page says when a sync last checked each agency, what it brought, and what it refused", async ({
  page,
}) => {
  const states = await coveredStates();
  const co = states.find((s) => s.state === "co")!;
  const nj = states.find((s) => s.state === "nj")!;
  expect(co.feeds).toMatchObject([{ feed: "co-led/recently-approved", outcome: "changed" }]);
  expect(nj.feeds).toMatchObject([{ feed: "nj-abc/retail-license-report", outcome: "refused" }]);
  // Three hours after the sync, on the page's clock.
  await page.clock.setFixedTime(Date.parse(serviceInstant(co.feeds![0]!.checked_at)) + 3 * 3_600_000);
  await page.goto("/data");
  const updates = (name: string) =>
    page
      .getByRole("table")
      .getByRole("row")
      .filter({ has: page.getByRole("rowheader", { name: `Search ${name}` }) })
      .getByRole("cell")
      .last();
  await expect(updates("Colorado")).toContainText("Checked 3 hours ago: new data loaded.");
  await expect(updates("New Jersey")).toContainText("Download refused 3 hours ago:");
  await expect(updates("New Jersey")).toContainText("web page");
  // The refused report's state still serves its records, and the newest source of Colorado is the sync's.
  expect(nj.records).toBeGreaterThan(0);
  expect(newestFirst(liveSources(co))[0]!.title).toBe("Recently Approved Liquor Licenses in Colorado");
  await expect(page.getByText("Updates to look at:").locator("..")).toContainText("New Jersey");
});
