import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { DEMO } from "./service.ts";

// Each page as a person meets it; the heading waited for says the page has arrived.
const PAGES = [
  { name: "search", path: "/", ready: "Find a liquor license" },
  { name: "results", path: "/?state=ny&by=name&q=inc", ready: "Results for “inc” in New York" },
  { name: "no results", path: "/?state=ny&by=name&q=qxzqxz", ready: "Results for “qxzqxz” in New York" },
  { name: "license", path: `/license/${DEMO.state}/${DEMO.license}`, ready: "Licensee" },
  { name: "license not found", path: "/license/ny/0099%2F7", ready: "License 0099/7" },
  { name: "state not covered", path: `/license/nj/${DEMO.license}`, ready: `License ${DEMO.license}` },
  { name: "no such state", path: "/license/zz/1", ready: "No state “zz”" },
  { name: "unknown page", path: "/no/such/page", ready: "Page not found" },
];

for (const { name, path, ready } of PAGES) {
  test(`axe finds no violations on the ${name} page`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole("heading", { name: ready })).toBeVisible();
    await expect(page.getByText("Searching…")).toHaveCount(0);
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual(
      [],
    );
  });
}

test("axe finds no violations in the print view of a license", async ({ page }) => {
  await page.goto(`/license/${DEMO.state}/${DEMO.license}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.emulateMedia({ media: "print" });
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.map((v) => v.id)).toEqual([]);
});
