import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { z } from "zod/mini";
import { fillDemo } from "../server/data/demo/fill-demo.ts";
import { generateLicenses } from "../server/data/demo/generate-licenses.ts";
import { DEFAULT_RATE_LIMIT } from "../server/service/rate-limit.ts";
import { openDatabase } from "../server/store/open-database.ts";
import { DEFAULT_REQUESTS_PER_SECOND } from "../server/web/watchlist/service-reader.ts";
import {
  CheckResponseSchema,
  LastCheckResponseSchema,
  WatchAddResponseSchema,
  WATCHLIST_API,
} from "../src/contract/watchlist.ts";
import { createBenchKey } from "./bench-key.ts";
import { launchChromium, requireBuild, startBuiltStack } from "./built-stack.ts";
import { cpuMicros } from "./process-cpu.ts";
import { rssMb } from "./process-memory.ts";
import { npmCommand, runContext, writeResultsSection } from "./results-file.ts";
import { markdownTable } from "./table.ts";

// `npm run bench:watch`: a team's 10,000 watched licenses, added in one list and then checked, by the
// built app server against the built service at its default rate limit, as `npm run serve` runs them.
const { values } = parseArgs({ options: { licenses: { type: "string", default: "10000" } } });
const count = Number(values.licenses);
const BUDGET_S = 60;
const context = runContext(npmCommand("bench:watch"));
requireBuild();

const dir = mkdtempSync(join(tmpdir(), "bench-watch-"));
const file = join(dir, "licenses.sqlite");
const db = openDatabase(file, { create: true });
await fillDemo(db, ["ny", "ma"], Math.ceil(count / 2));
db.close();
const rows = ["ny", "ma"]
  .flatMap((state) => [...generateLicenses(state, Math.ceil(count / 2))].map((l) => ({ state, license: l.license })))
  .slice(0, count)
  .map((l, i) => ({ row: i + 1, ...l }));
const { key } = await createBenchKey(file, "npm run bench:watch");

// No start-up check: the one measured is the one asked for.
const stack = await startBuiltStack({ db: file, key, dir, env: { WATCH_CHECK_HOURS: "0" } });
const webPid = stack.webPid;
const app = `${stack.appUrl}${WATCHLIST_API}`;
const post = (path: string, body?: unknown) =>
  fetch(`${app}${path}`, {
    method: "POST",
    headers:
      body === undefined ? { cookie: stack.cookie } : { "content-type": "application/json", cookie: stack.cookie },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

try {
  const cpuBefore = cpuMicros(webPid);
  let began = performance.now();
  const added = z.parse(WatchAddResponseSchema, await (await post("", { rows })).json()).data;
  const addSeconds = (performance.now() - began) / 1000;
  if (added.added !== count) throw new Error(`added ${added.added} of ${count}`);
  const addCpu = (cpuMicros(webPid) - cpuBefore) / 1e6;

  const cpuCheck = cpuMicros(webPid);
  began = performance.now();
  let check = z.parse(CheckResponseSchema, await (await post("/check")).json()).data;
  // As the page follows it: the running check's progress, until its finished_at.
  while (check.finished_at === null) {
    await sleep(250);
    check = z.parse(
      LastCheckResponseSchema,
      await (await fetch(`${app}/check`, { headers: { cookie: stack.cookie } })).json(),
    ).data!;
  }
  const checkSeconds = (performance.now() - began) / 1000;
  const checkCpu = (cpuMicros(webPid) - cpuCheck) / 1e6;
  if (check.checked !== count || check.error) throw new Error(`the check answered ${JSON.stringify(check)}`);

  const listTimes: number[] = [];
  let bytes = 0;
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    bytes = (await (await fetch(app, { headers: { cookie: stack.cookie } })).arrayBuffer()).byteLength;
    listTimes.push(performance.now() - t);
  }
  const listMs = listTimes.sort((a, b) => a - b)[2]!;
  const rss = rssMb(webPid);

  // What the clerk waits for: /watchlist opened, to the count and the table's first rows on screen.
  const browser = await launchChromium();
  const pageTimes: number[] = [];
  try {
    for (let i = 0; i < 5; i++) {
      const page = await stack.newPage(browser);
      const t = performance.now();
      await page.goto(`${stack.appUrl}/watchlist`);
      await page.getByText(`${count.toLocaleString("en-US")} licenses watched`).waitFor({ timeout: 60_000 });
      await page.getByRole("row").nth(1).waitFor();
      pageTimes.push(performance.now() - t);
      await page.close();
    }
  } finally {
    await browser.close();
  }
  const pageMs = pageTimes.sort((a, b) => a - b)[2]!;

  const requests = Math.ceil(count / 2 / 100) * 2 * 2;
  const report = [
    context,
    `- ${count.toLocaleString("en-US")} licenses (half New York, half Massachusetts, demo data) added to the watchlist in one list (\`POST ${WATCHLIST_API}\`), then one check on demand (\`POST ${WATCHLIST_API}/check\`), to its \`finished_at\`. The built app server (\`npm run serve\`) against the built service (\`npm run api\`) at its default rate limit (${DEFAULT_RATE_LIMIT.perSecond} requests/s, bursts of ${DEFAULT_RATE_LIMIT.burst}); the watchlist reads through the batch extension, ${requests} requests each time, paced at ${DEFAULT_REQUESTS_PER_SECOND} requests/s (\`WATCH_REQUESTS_PER_SECOND\`) to leave the team's clerks most of the key's rate.`,
    `- The watchlist page's data (\`GET ${WATCHLIST_API}\`, every entry with its record): ${(bytes / 1e6).toFixed(1)} MB, ${listMs.toFixed(0)} ms (median of 5). App server memory after: ${rss.toFixed(0)} MB RSS.`,
    `- \`/watchlist\` opened in Chromium, to "${count.toLocaleString("en-US")} licenses watched" and the table's first row on screen: ${pageMs.toFixed(0)} ms (median of 5; slowest ${Math.max(...pageTimes).toFixed(0)} ms).`,
    "",
    markdownTable(
      ["step", "wall time", "app server CPU", "budget"],
      [
        [`add ${count.toLocaleString("en-US")}`, `${addSeconds.toFixed(1)} s`, `${addCpu.toFixed(2)} s`, ""],
        [
          `check ${count.toLocaleString("en-US")}`,
          `${checkSeconds.toFixed(1)} s`,
          `${checkCpu.toFixed(2)} s`,
          `< ${BUDGET_S} s: ${checkSeconds < BUDGET_S ? "met" : "MISSED"}`,
        ],
      ],
    ),
  ].join("\n");
  console.log(report);
  writeResultsSection("A team's watchlist (issue 16): npm run bench:watch", report);
} finally {
  await stack.stop();
  rmSync(dir, { recursive: true, force: true });
}
