import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { z } from "zod/mini";
import { RecordChecksResponseSchema } from "../src/contract/checks.ts";
import { addUser, signInAs } from "./accounts.ts";
import { stop } from "./global-setup.ts";
import { NYC_BARS, startNycStack } from "./own-stack.ts";

// What a clerk was shown is what the record of checks keeps: for each row of a Verify list, a license page and a
// watchlist change, the Checks page and the receipt say the verdict, the reason and the line the screen said. The
// screen is read, not a fixed expectation: whatever the rule says of the real data, the record must say the same.
test.use({ baseURL: process.env.E2E_REAL_APP_URL });

test.beforeEach(async ({ page }) => {
  // The server judges by its own clock: the browser's is fixed at the same moment, so both judge the same day.
  await page.clock.setFixedTime(new Date());
});

/** A name given that is not the number's, a near number, a blank line, a line that is no row, a number twice. */
const LIST = [
  "State,License number,Business name,Address",
  "NJ,0707-33-003-007,White Horse",
  "NJ,0101-33-5-3",
  "",
  "%%%%",
  "NJ,0101-33-005-003,Black Cat Tavern",
  "MA,,Union Oyster House",
  "NJ,0101-33-005-003",
  "NY,1234567",
  "Florida,123",
].join("\n");

interface Shown {
  verdict: string;
  reason: string;
  line?: string;
}

const text = async (locator: Locator) => ((await locator.textContent()) ?? "").trim();

/** The receipt's "entry as stored" (and "what the clerk gave") facts, term by term. */
async function receiptFacts(page: Page, id: number, base = ""): Promise<Map<string, string>> {
  await page.goto(`${base}/checks/${id}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(`Entry ${id}`);
  const facts = new Map<string, string>();
  for (const row of await page.locator(".facts__row").all()) {
    const term = await text(row.locator("dt"));
    if (!facts.has(term)) facts.set(term, await text(row.locator("dd")));
  }
  facts.set("sentence", await text(page.locator(".receipt__sentence")));
  return facts;
}

/** The Checks page's row of entry `id`: its verdict badge, its reason, and the line it names. */
async function checksRow(page: Page, id: number): Promise<Shown> {
  const row = page
    .getByRole("row")
    .filter({ has: page.getByRole("link", { name: `Receipt of entry ${id}`, exact: true }) });
  await expect(row).toHaveCount(1);
  const cells = row.getByRole("cell");
  const line = (await text(cells.nth(3))).match(/Line (\d+):/)?.[1];
  return {
    verdict: await text(cells.nth(5).locator(".verdict")),
    reason: await text(cells.nth(5).locator(".checks-table__detail")),
    ...(line ? { line } : {}),
  };
}

/** Each entry's receipt says what the screen said: verdict and reason in the stored entry and in its sentence. */
async function expectReceipt(page: Page, id: number, shown: Shown, base = "") {
  const facts = await receiptFacts(page, id, base);
  expect(facts.get("Verdict"), `receipt ${id}`).toBe(shown.verdict);
  expect(facts.get("Reason"), `receipt ${id}`).toBe(shown.reason);
  expect(facts.get("sentence"), `receipt ${id}`).toContain(`${shown.verdict.toUpperCase()}. ${shown.reason}`);
  if (shown.line) {
    expect(facts.get("Line of the list"), `receipt ${id}`).toBe(shown.line);
    expect(facts.get("sentence"), `receipt ${id}`).toContain(`, line ${shown.line} of a Verify list. You gave `);
  }
}

test("each row of a Verify list is on record, and on its receipt, as the screen showed it: verdict, reason, line", async ({
  page,
}) => {
  test.setTimeout(60_000);
  await page.goto("/verify");
  await page.getByLabel("Licenses to verify").fill(LIST);
  const posted = page.waitForResponse((r) => r.url().endsWith("/api/checks") && r.request().method() === "POST");
  await page.getByRole("button", { name: "Verify" }).click();
  const { ids } = z.parse(RecordChecksResponseSchema, await (await posted).json()).data;
  await expect(page.getByRole("link", { name: "Recorded in Checks" })).toBeVisible({ timeout: 30_000 });

  const rows = page.getByRole("table").locator("tbody tr");
  const screen: Shown[] = [];
  for (const row of await rows.all()) {
    const cells = row.locator("td");
    screen.push({
      line: await text(cells.nth(0)),
      verdict: await text(cells.nth(4)),
      reason: await text(cells.nth(5)),
    });
  }
  // The paste's own lines (the header is line 1, line 4 is blank), and the cases the list is made of.
  expect(screen.map((s) => s.line)).toEqual(["2", "3", "5", "6", "7", "8", "9", "10"]);
  const reasons = screen.map((s) => s.reason).join("\n");
  for (const words of ["Number belongs to", "Did you mean", "Not a list row", "Also on line 8", "Also on line 6"]) {
    expect(reasons).toContain(words);
  }
  // Every row shown is on record, one entry each, in the list's order.
  expect(ids).toHaveLength(screen.length);
  expect(new Set(ids).size).toBe(screen.length);

  await page.goto("/checks?action=verify");
  for (const [i, shown] of screen.entries()) {
    expect(await checksRow(page, ids[i]!), `Checks page, line ${shown.line}`).toEqual(shown);
  }
  for (const [i, shown] of screen.entries()) await expectReceipt(page, ids[i]!, shown);

  // The White Horse row's receipt says, in words, what the clerk gave beside what the state's record names.
  const whiteHorse = await receiptFacts(page, ids[0]!);
  expect(whiteHorse.get("sentence")).toMatch(
    /You gave NJ, 0707-33-003-007, White Horse; the state’s record names .+: CHECK\./,
  );
  expect(whiteHorse.get("Business name")).toBe("White Horse");
});

test("a license page's check is on record, and on its receipt, as the page showed it", async ({ page }) => {
  const posted = page.waitForResponse((r) => r.url().endsWith("/api/checks") && r.request().method() === "POST");
  await page.goto("/license/nj/0707-33-003-007");
  const panel = page.getByRole("region", { name: "Verdict" });
  const shown = {
    verdict: await text(panel.locator(".verdict")),
    reason: await text(panel.locator(".verdict-panel__reason")),
  };
  const [id] = z.parse(RecordChecksResponseSchema, await (await posted).json()).data.ids;
  expect(id).toEqual(expect.any(Number));
  await expect(panel.getByRole("link", { name: "Recorded in Checks" })).toHaveAttribute("href", `/checks/${id}`);

  await page.goto("/checks?action=license+page");
  expect(await checksRow(page, id!)).toEqual(shown);
  await expectReceipt(page, id!, shown);
});

// A change needs a list that changes: a stack of its own over New York City's real list, as e2e/watchlist.spec.ts.
test("a watchlist's changes marked seen are on record, and on their receipts, as the watchlist showed them", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const MOVED = "1275754";
  const REMOVED = "1275736";
  const dir = mkdtempSync(join(tmpdir(), "license-lookup-record-"));
  const servers: ChildProcess[] = [];
  try {
    const { appUrl, appDb, importNext } = await startNycStack(dir, servers);
    addUser(appDb, "recorder@example.com", "member");
    await signInAs(page, appUrl, "recorder@example.com");

    for (const license of [MOVED, REMOVED]) {
      await page.goto(`${appUrl}/license/ny/${license}`);
      await page.getByRole("button", { name: "Watch", exact: true }).click();
      await expect(page.getByRole("button", { name: "Watching" })).toBeVisible();
    }
    // The agency's next list: one expiry moved, one license gone.
    const original = readFileSync(NYC_BARS, "utf8");
    const changed = original
      .split("\n")
      .filter((line) => !line.startsWith(`${REMOVED},`))
      .map((line) => (line.startsWith(`${MOVED},`) ? line.replace('"02/28/2016"', '"02/28/2018"') : line))
      .join("\n");
    writeFileSync(join(dir, "nyc_bars.csv"), changed);
    importNext(join(dir, "nyc_bars.csv"), "2016-06-01");

    await page.goto(`${appUrl}/watchlist`);
    await page.getByRole("button", { name: "Check now" }).click();
    const changes = page.getByRole("region", { name: "Changed since you last looked" });
    await expect(changes.getByText(/No longer listed/)).toBeVisible({ timeout: 30_000 });
    await expect(changes.getByText(/Expiry moved/)).toBeVisible();

    const shown = new Map<string, Shown>();
    for (const license of [MOVED, REMOVED]) {
      const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: license, exact: true }) });
      shown.set(license, {
        verdict: await text(row.locator(".verdict")),
        reason: await text(row.locator(".watch-table__reason")),
      });
    }
    await page.getByRole("button", { name: "Mark all as seen" }).click();
    await expect(changes.getByText(/^No changes since you last looked/)).toBeVisible();

    await page.goto(`${appUrl}/checks?action=watchlist`);
    for (const [license, seen] of shown) {
      const link = page
        .getByRole("row")
        .filter({ hasText: `NY ${license}` })
        .getByRole("link", { name: /^Receipt of entry/ });
      await expect(link).toHaveCount(1);
      const id = Number(await link.textContent());
      expect(await checksRow(page, id), `Checks page, NY ${license}`).toEqual(seen);
      await expectReceipt(page, id, seen, appUrl);
      await page.goto(`${appUrl}/checks?action=watchlist`);
    }
  } finally {
    await Promise.all(servers.map(stop));
    rmSync(dir, { recursive: true, force: true });
  }
});
