import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fillDemo } from "../server/data/demo/fill-demo.ts";
import { generateLicenses } from "../server/data/demo/generate-licenses.ts";
import { DEFAULT_RATE_LIMIT } from "../server/service/rate-limit.ts";
import { openDatabase } from "../server/store/open-database.ts";
import { createBenchKey } from "./bench-key.ts";
import { launchChromium, requireBuild, startBuiltStack } from "./built-stack.ts";
import type { Page } from "@playwright/test";
import { percentiles } from "./percentiles.ts";
import { cpuMicros } from "./process-cpu.ts";
import { npmCommand, runContext, writeResultsSection } from "./results-file.ts";
import { markdownTable } from "./table.ts";

// `npm run bench:verify`: a clerk's list of 1,000 licenses, pasted into /verify in Chromium, from the
// click on Verify to the last row's verdict on screen, against the built service at its default rate limit;
// then what recording those checks adds (issue 30), there and on license pages opened from a link.
const { values } = parseArgs({
  options: { rounds: { type: "string", default: "5" }, rows: { type: "string", default: "1000" } },
});
const rounds = Number(values.rounds);
const rowCount = Number(values.rows);
const BUDGET_S = 5;
const context = runContext(npmCommand("bench:verify"));
requireBuild();

const dir = mkdtempSync(join(tmpdir(), "bench-verify-"));
const file = join(dir, "licenses.sqlite");
const db = openDatabase(file, { create: true });
const STATES = ["ny", "ma", "nj"];
await fillDemo(db, STATES, 5000);
db.close();
// The generator is deterministic: the numbers the database now holds.
const held = STATES.flatMap((state) => [...generateLicenses(state, 400)].map((l) => ({ state, license: l.license })));
const { key } = await createBenchKey(file, "npm run bench:verify");

// Nine rows in ten are licenses the service holds, across three states; the tenth are numbers it does not.
const list = Array.from({ length: rowCount }, (_, i) =>
  i % 10 === 9
    ? `NY,${String(9_000_000 + i)}`
    : `${held[i % held.length]!.state.toUpperCase()},${held[i % held.length]!.license}`,
).join("\n");

const stack = await startBuiltStack({ db: file, key, dir });
const LICENSE_PAGES = 60;
const pageSeconds: number[] = [];
const pageRecordSeconds: number[] = [];
const pageCpu = { open: [] as number[], record: [] as number[] };
const appUrl = stack.appUrl;
const browser = await launchChromium();
const seconds: number[] = [];
// After the last verdict, until the page says the run is recorded; and the CPU of both servers for each part.
const recordSeconds: number[] = [];
const cpu = { verify: [] as number[], record: [] as number[] };
const serversCpu = () => cpuMicros(stack.webPid) + cpuMicros(stack.apiPid);
let requests = 0;
// Without recording: the page's post to the record of checks refused in the browser, as if the feature were absent.
// Both kinds of page route it (one passes it on), so that Playwright's interception weighs on both alike.
const routeRecording = (page: Page, recording: boolean) =>
  page.route("**/api/checks", (route) => (recording ? route.continue() : route.abort()));
const noRecordSeconds: number[] = [];
const pageNoRecordSeconds: number[] = [];
try {
  // Each round a run with recording and one without, taking turns, so that other work on the machine falls on both.
  for (let round = 0; round < rounds; round++) {
    for (const recording of [true, false]) {
      const page = await stack.newPage(browser);
      await routeRecording(page, recording);
      page.on("request", (request) => {
        if (recording && request.url().includes("/v2/")) requests += 1;
      });
      await page.goto(`${appUrl}/verify`);
      await page.getByLabel("Licenses to verify").fill(list);
      const began = performance.now();
      const cpuBefore = serversCpu();
      await page.getByRole("button", { name: "Verify" }).click();
      await page
        .getByRole("heading", { name: `${rowCount.toLocaleString("en-US")} rows verified` })
        .waitFor({ timeout: 120_000 });
      const shown = performance.now();
      const cpuShown = serversCpu();
      if (!recording) {
        noRecordSeconds.push((shown - began) / 1000);
        await page.context().close();
        continue;
      }
      seconds.push((shown - began) / 1000);
      await page.getByRole("link", { name: "Recorded in Checks" }).waitFor({ timeout: 60_000 });
      recordSeconds.push((performance.now() - shown) / 1000);
      cpu.verify.push(cpuShown - cpuBefore);
      cpu.record.push(serversCpu() - cpuShown);
      await page.context().close();
    }
  }
  // License pages opened from a link, each a different license, by turns with and without recording: to the
  // verdict on screen, then (with) to "Recorded in Checks".
  const withPage = await stack.newPage(browser);
  const withoutPage = await stack.newPage(browser);
  // The page notes when its verdict is put on screen, from the navigation's start: not when a poll from here sees it.
  for (const page of [withPage, withoutPage]) {
    await page.addInitScript(() => {
      new MutationObserver((_, observer) => {
        if (!document.querySelector(".verdict")) return;
        (window as unknown as { verdictAt: number }).verdictAt = performance.now();
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
  }
  await routeRecording(withPage, true);
  await routeRecording(withoutPage, false);
  for (const [i, { state, license }] of held.slice(0, 2 * LICENSE_PAGES).entries()) {
    const page = i % 2 === 0 ? withPage : withoutPage;
    const cpuBefore = serversCpu();
    await page.goto(`${appUrl}/license/${state}/${license}`);
    await page.locator(".verdict").first().waitFor();
    const shown = performance.now();
    const cpuShown = serversCpu();
    const verdictAt = await page.evaluate(() => (window as unknown as { verdictAt: number }).verdictAt);
    if (page === withoutPage) {
      pageNoRecordSeconds.push(verdictAt / 1000);
      continue;
    }
    pageSeconds.push(verdictAt / 1000);
    await page.getByRole("link", { name: "Recorded in Checks" }).waitFor({ timeout: 10_000 });
    pageRecordSeconds.push((performance.now() - shown) / 1000);
    pageCpu.open.push(cpuShown - cpuBefore);
    pageCpu.record.push(serversCpu() - cpuShown);
  }
} finally {
  await browser.close();
  await stack.stop();
  rmSync(dir, { recursive: true, force: true });
}

const { p50 } = percentiles(seconds);
const worst = Math.max(...seconds);
const report = [
  context,
  `- ${rounds} rounds, each a fresh page: ${rowCount.toLocaleString("en-US")} rows pasted (nine in ten held by the service, over New York, Massachusetts and New Jersey; the rest not held, so their near forms are asked too), from the click on Verify to the heading "${rowCount.toLocaleString("en-US")} rows verified" with every row's verdict in the table. The built service (\`npm run api\`) at its default rate limit (${DEFAULT_RATE_LIMIT.perSecond} requests/s, bursts of ${DEFAULT_RATE_LIMIT.burst}), behind the built app server (\`npm run serve\`), in Chromium.`,
  `- Requests to /v2 a round: ${Math.round(requests / rounds)} (the batch extension: up to 100 numbers a request).`,
  "",
  markdownTable(
    ["rows", "median", "slowest", "budget"],
    [
      [
        rowCount.toLocaleString("en-US"),
        `${p50.toFixed(2)} s`,
        `${worst.toFixed(2)} s`,
        `<= ${BUDGET_S} s: ${worst <= BUDGET_S ? "met" : "MISSED"}`,
      ],
    ],
  ),
].join("\n");
console.log(report);
writeResultsSection("Verifying a list in the browser (issue 14): npm run bench:verify", report);

const median = (list: number[]) => percentiles(list).p50;
const added = (withIt: number, without: number) =>
  `${withIt >= without ? "+" : ""}${(((withIt - without) / without) * 100).toFixed(1)}%`;
const verifyAdded = (median(seconds) - median(noRecordSeconds)) / median(noRecordSeconds);
const pageAdded = (median(pageSeconds) - median(pageNoRecordSeconds)) / median(pageNoRecordSeconds);
const recordReport = [
  context,
  `- A check is recorded after its verdict is on screen: the page posts the rows it showed, and the app's server reads them again from the service, judges them by the page's rule and appends them to the chain (one transaction for a list). What the clerk waits for, the verdicts on screen, is timed with recording and without it (the page's post refused in the browser), the two taking turns: ${rounds} Verify runs of ${rowCount.toLocaleString("en-US")} rows each way, and ${LICENSE_PAGES} license pages each way (each a different license, opened from a link in a tab kept open; the time the page itself notes, from the navigation's start to its verdict's insertion). After the verdicts, the time until the page says "Recorded in Checks", and the CPU of the two servers (the app's and the service's, /proc, in steps of 10 ms) for the recording and for what came before it.`,
  "",
  markdownTable(
    [
      "",
      "verdicts on screen, without recording",
      "with recording",
      "added",
      "then recorded after",
      "servers' CPU: before / recording",
      "budget: added <= 5%",
    ],
    [
      [
        `Verify ${rowCount.toLocaleString("en-US")} rows (medians)`,
        `${median(noRecordSeconds).toFixed(2)} s`,
        `${median(seconds).toFixed(2)} s`,
        added(median(seconds), median(noRecordSeconds)),
        `${median(recordSeconds).toFixed(2)} s`,
        `${(median(cpu.verify) / 1000).toFixed(0)} ms / ${(median(cpu.record) / 1000).toFixed(0)} ms`,
        verifyAdded <= 0.05 ? "met" : "MISSED",
      ],
      [
        "a license page (medians)",
        `${(median(pageNoRecordSeconds) * 1000).toFixed(0)} ms`,
        `${(median(pageSeconds) * 1000).toFixed(0)} ms`,
        added(median(pageSeconds), median(pageNoRecordSeconds)),
        `${(median(pageRecordSeconds) * 1000).toFixed(0)} ms`,
        `${(median(pageCpu.open) / 1000).toFixed(0)} ms / ${(median(pageCpu.record) / 1000).toFixed(0)} ms`,
        pageAdded <= 0.05 ? "met" : "MISSED",
      ],
    ],
  ),
].join("\n");
console.log(recordReport);
writeResultsSection("Recording checks (issue 30): npm run bench:verify", recordReport);
