import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { DEMO } from "./service.ts";

test("no request the page makes carries an Authorization header, yet every /v2 call succeeds", async ({ page }) => {
  // Playwright reports a finished request to the test a little after the page has used its answer, and
  // its headers later still: keep each report's promise, and wait for the ones the page is known to make.
  const reports: Promise<{ path: string; authorization: string | undefined; status: number | undefined }>[] = [];
  page.on("requestfinished", (request) => {
    reports.push(
      Promise.all([request.response(), request.allHeaders()]).then(([response, headers]) => ({
        path: new URL(request.url()).pathname,
        authorization: headers.authorization,
        status: response?.status(),
      })),
    );
  });
  const sent = () => Promise.all(reports);

  await page.goto("/");
  await page.getByLabel("State").selectOption("ny");
  await page.getByRole("searchbox", { name: "Business or owner name" }).fill("inc");
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByRole("list", { name: "Matching licenses" }).getByRole("link").first().click();
  await expect(page.getByRole("button", { name: "Copy link" })).toBeVisible();
  await page.goto(`/license/${DEMO.state}/${DEMO.license}`);
  await expect(page.getByRole("button", { name: "Copy link" })).toBeVisible();

  const api = async () => (await sent()).filter((r) => r.path.startsWith("/v2/"));
  await expect
    .poll(async () => (await api()).map((r) => r.path))
    .toEqual(
      expect.arrayContaining(["/v2/states", "/v2/search-with-provenance", `/v2/license/${DEMO.state}/${DEMO.license}`]),
    );
  expect((await api()).filter((r) => r.status !== 200)).toEqual([]);
  expect((await sent()).filter((r) => r.authorization !== undefined)).toEqual([]);
});

test("the built files do not contain the key", () => {
  const key = process.env.E2E_API_KEY!;
  expect(key.length).toBeGreaterThan(10);
  const dist = join(import.meta.dirname, "..", "dist");
  const files = readdirSync(dist, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
  expect(files.length).toBeGreaterThan(2);
  for (const file of files) {
    expect(readFileSync(join(file.parentPath, file.name), "utf8").includes(key), file.name).toBe(false);
  }
});
