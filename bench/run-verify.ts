import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fillDemo } from "../server/demo/fill-demo.ts";
import { generateLicenses } from "../server/demo/generate-licenses.ts";
import { DEFAULT_RATE_LIMIT } from "../server/rate-limit.ts";
import { openDatabase } from "../server/store/open-database.ts";
import { createBenchKey } from "./bench-key.ts";
import { launchChromium, requireBuild, startBuiltStack } from "./built-stack.ts";
import { percentiles } from "./percentiles.ts";
import { npmCommand, runContext, writeResultsSection } from "./results-file.ts";
import { markdownTable } from "./table.ts";

// `npm run bench:verify`: a clerk's list of 1,000 licenses, pasted into /verify in Chromium, from the
// click on Verify to the last row's verdict on screen, against the built service at its default rate limit.
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
const { key } = createBenchKey(file, "npm run bench:verify");

// Nine rows in ten are licenses the service holds, across three states; the tenth are numbers it does not.
const list = Array.from({ length: rowCount }, (_, i) =>
  i % 10 === 9
    ? `NY,${String(9_000_000 + i)}`
    : `${held[i % held.length]!.state.toUpperCase()},${held[i % held.length]!.license}`,
).join("\n");

const stack = await startBuiltStack({ db: file, key, dir });
const appUrl = stack.appUrl;
const browser = await launchChromium();
const seconds: number[] = [];
let requests = 0;
try {
  for (let round = 0; round < rounds; round++) {
    const page = await browser.newPage();
    page.on("request", (request) => {
      if (request.url().includes("/v2/")) requests += 1;
    });
    await page.goto(`${appUrl}/verify`);
    await page.getByLabel("Licenses to verify").fill(list);
    const began = performance.now();
    await page.getByRole("button", { name: "Verify" }).click();
    await page
      .getByRole("heading", { name: `${rowCount.toLocaleString("en-US")} rows verified` })
      .waitFor({ timeout: 120_000 });
    seconds.push((performance.now() - began) / 1000);
    await page.close();
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
