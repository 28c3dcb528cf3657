import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { DEMO } from "./service.ts";

test("no request the page makes carries an Authorization header, yet every /v2 call succeeds", async ({ page }) => {
  const sent: { url: string; authorization: string | undefined; status?: number }[] = [];
  page.on("requestfinished", async (request) => {
    const response = await request.response();
    sent.push({ url: request.url(), authorization: (await request.allHeaders()).authorization, status: response?.status() });
  });

  await page.goto("/");
  await page.getByLabel("State").selectOption("ny");
  await page.getByRole("searchbox", { name: "Business or owner name" }).fill("inc");
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByRole("list", { name: "Matching licenses" }).getByRole("link").first().click();
  await expect(page.getByRole("button", { name: "Copy link" })).toBeVisible();
  await page.goto(`/license/${DEMO.state}/${DEMO.license}`);
  await expect(page.getByRole("button", { name: "Copy link" })).toBeVisible();

  const api = sent.filter((r) => new URL(r.url).pathname.startsWith("/v2/"));
  expect(api.map((r) => new URL(r.url).pathname)).toEqual(expect.arrayContaining(["/v2/states", "/v2/search", `/v2/license/${DEMO.state}/${DEMO.license}`]));
  expect(api.every((r) => r.status === 200)).toBe(true);
  expect(sent.filter((r) => r.authorization !== undefined)).toEqual([]);
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
