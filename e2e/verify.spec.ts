import { readFileSync, writeFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import ExcelJS from "exceljs";

// A clerk's list against the real exports of ../shared/data (see global-setup.ts), on a fixed day.
test.use({ baseURL: process.env.E2E_REAL_APP_URL });
const TODAY = new Date("2026-11-22T12:00:00");

/** The list, each row with the verdict it must get and words its reason must hold. */
const LIST: [string, string, string?][] = [
  ["State,License number,Business name,Address", ""],
  ["MA,00780-RS-0116,Union Oyster House", "valid"],
  ["NY,1268007", "check", "Expires December 31, 2020, after our data of July 30, 2019: it may have been renewed"],
  ["CA,574903", "inactive", "cancelled"],
  ["NY,2500672", "check", "in our data of February 4, 2020, which is more than a year old"],
  ["NJ,0101-33-005-003,Black Cat Tavern", "valid"],
  ["NJ,0101-33-5-3", "check", "Did you mean 0101-33-005-003"],
  ["NJ,0101330050003", "check", "Did you mean 0101-33-005-003"],
  ["NJ,0101 33 005 003", "check", "Did you mean 0101-33-005-003"],
  ["MA,780-RS-0116", "check", "Did you mean 00780-RS-0116"],
  ["NJ,0101-33-005-003,White Horse", "check", "Number belongs to BLACK CAT TAVERN, not White Horse"],
  ["MA,,Union Oyster House", "valid", "Matched by name"],
  ["NY,1268007", "check", "Also on line 3"],
  ["Florida,123", "not covered", "Florida is not covered"],
  ["XX,123", "check", "Unknown state “XX”"],
  ["NY,,", "check", "No license number and no business name"],
  ["NY,1234567", "not found", "does not mean the business is unlicensed"],
  ["%%%%", "check", "Not a list row"],
  ["New York,1275754", "check", "it may have been renewed"],
  ["NY,=1+1", "not found"],
  ["MA,00011-CL-0002", "valid"],
  ["MA,00024-PK-0002", "valid"],
  ["NJ,0101-31-006-001", "valid"],
  ["NJ,0102-32-104-007", "inactive", "pocket license"],
  ["CA,414067", "check", "Expires November 30, 2024, after our data of February 21, 2024"],
  ["CA,474115", "inactive", "suspended"],
  ["NY,3100397", "check", "it may have been decided since"],
  ["PA,R2638", "check", "Expires October 31, 2025, after our data of June 9, 2025: it may have been renewed"],
  ["ny,1271483", "expired", "Expired on December 31, 2015"],
  ["CA,593234", "inactive"],
  ["New Jersey,0102-33-001-006,O Gradys", "inactive"],
];
const ROWS = LIST.slice(1);
const TEXT = LIST.map(([line]) => line).join("\n");

test.beforeEach(async ({ page }) => {
  await page.clock.setFixedTime(TODAY);
});

const table = (page: Page) => page.getByRole("table");

async function expectEveryVerdict(page: Page) {
  await expect(page.getByRole("heading", { name: `${ROWS.length} rows verified` })).toBeVisible({ timeout: 30_000 });
  const rows = table(page).locator("tbody tr");
  await expect(rows).toHaveCount(ROWS.length);
  for (const [i, [line, verdict, words]] of ROWS.entries()) {
    const row = rows.nth(i);
    // Numbered by the paste's lines: the header is line 1.
    await expect(row.locator("td").first(), line).toHaveText(String(i + 2));
    await expect(row.locator("td").nth(4), line).toHaveText(verdict);
    if (words) await expect(row.locator("td").nth(5), line).toContainText(words);
  }
  // Every verdict word but pending is on the list, and the counts above the table add up. On the fixed day no
  // application in the real data is in data at most a year old (NY's lists are of 2020, WA's notices of 2024):
  // each reads check.
  for (const verdict of ["valid", "expired", "inactive", "check", "not found", "not covered"]) {
    const count = ROWS.filter(([, v]) => v === verdict).length;
    expect(count, verdict).toBeGreaterThan(0);
    await expect(page.getByRole("radio", { name: `${verdict} (${count})` })).toBeVisible();
  }
}

test("a pasted 30-row list gets a verdict per row, exports as CSV, and is still there after a reload", async ({
  page,
}) => {
  await page.goto("/");
  await page.getByRole("link", { name: "Verify a list" }).click();
  await page.getByLabel("Licenses to verify").fill(TEXT);
  await page.getByRole("button", { name: "Verify" }).click();
  await expectEveryVerdict(page);
  await expect(table(page).getByRole("columnheader", { name: "Verdict" })).toBeVisible();

  // Only the rows of one verdict, on asking.
  await page.getByRole("radio", { name: /^not covered/ }).check();
  await expect(table(page).locator("tbody tr")).toHaveCount(1);
  await page.getByRole("radio", { name: /^all/ }).check();

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download CSV" }).click();
  const csv = readFileSync(await (await download).path(), "utf8");
  expect(csv.startsWith("\uFEFF")).toBe(true);
  const lines = csv.slice(1).trimEnd().split("\r\n");
  expect(lines[0]).toBe(
    "row,state,license,matched_license,verdict,reason,status,business,owner,expires,source,as_of,checked_at,link",
  );
  expect(lines).toHaveLength(ROWS.length + 1);
  expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(ROWS.map((_, i) => String(i + 2)));
  expect(lines[2]).toMatch(
    /^3,NY,1268007,1268007,check,"?Expires December 31, 2020, after our data of July 30, 2019: it may have been renewed/,
  );
  expect(lines[27]).toMatch(
    /^28,PA,R2638,R2638,check,"?Expires October 31, 2025, after our data of June 9, 2025: it may have been renewed/,
  );
  // A formula never reaches Excel as a formula.
  expect(lines[19]).toMatch(/^20,NY,"'=1\+1",,not found,/);

  await page.reload();
  await expectEveryVerdict(page);
  await expect(page.getByLabel("Licenses to verify")).toHaveValue(TEXT);
  await noAxeViolations(page);
  await page.emulateMedia({ media: "print" });
  await noAxeViolations(page);
});

test("the same list uploaded as CSV and as XLSX gets the same verdicts", async ({ page }, testInfo) => {
  const csvPath = testInfo.outputPath("accounts.csv");
  const xlsxPath = testInfo.outputPath("accounts.xlsx");
  writeFileSync(csvPath, TEXT);
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Accounts");
  for (const [line] of LIST) sheet.addRow(line.split(","));
  await workbook.xlsx.writeFile(xlsxPath);

  await page.goto("/verify");
  // The page itself, not the "Loading…" its code is on its way behind: axe reads what is on screen then.
  await expect(page.getByLabel("Or choose a CSV or XLSX file")).toBeVisible();
  await noAxeViolations(page);
  for (const file of [csvPath, xlsxPath]) {
    await page.getByLabel("Or choose a CSV or XLSX file").setInputFiles(file);
    await page.getByRole("button", { name: "Verify" }).click();
    await expectEveryVerdict(page);
    await page.getByRole("button", { name: "Clear the list" }).click();
    await expect(page.getByRole("table")).toHaveCount(0);
  }
});

test("a file that is neither CSV nor XLSX gets a clear message, and nothing runs", async ({ page }) => {
  await page.goto("/verify");
  await page
    .getByLabel("Or choose a CSV or XLSX file")
    .setInputFiles({ name: "licenses.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4") });
  await expect(page.getByRole("alert")).toContainText("licenses.pdf");
  await expect(page.getByRole("table")).toHaveCount(0);
});

async function noAxeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual(
    [],
  );
}
