import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { z } from "zod/mini";
import { createBenchKey } from "./bench-key.ts";
import { BENCH_DIR } from "./build-bench-db.ts";
import { requireBuild, startBuiltStack } from "./built-stack.ts";
import { npmCommand, runContext, writeResultsSection } from "./results-file.ts";
import { markdownTable, verdict } from "./table.ts";

// `npm run bench:pages [-- --runs N] [-- --reimport]`: Lighthouse on each page of the built app over the real
// exports, desktop and mobile: performance and accessibility scores, layout shift, first and largest paint,
// blocking time. The exports are imported once into bench/.data/real.sqlite (again with --reimport).
const { values } = parseArgs({
  options: { runs: { type: "string", default: "3" }, reimport: { type: "boolean", default: false } },
});
const runs = Number(values.runs);
const context = runContext(npmCommand("bench:pages"));
requireBuild();

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DATA = fileURLToPath(new URL("../../shared/data", import.meta.url));
const REAL_DB = join(BENCH_DIR, "real.sqlite");
// 13 declares Node >= 22.19; 12.8.2 measured what 13 did on the issue's pages (README, dependencies).
const LIGHTHOUSE_VERSION = "12.8.2";
const LIGHTHOUSE = lighthouseCli();
const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];

// Dead Rabbit Tavern: the record the verdict tests read; 9999999 is a number New York's data does not hold.
const PAGES = [
  { name: "search", path: "/", scored: true },
  { name: "results", path: "/?state=ny&by=name&q=dead+rabbit", scored: true },
  { name: "license", path: "/license/ny/1268007", scored: true },
  { name: "not found", path: "/license/ny/9999999", scored: false },
  { name: "verify", path: "/verify", scored: true },
  { name: "watchlist", path: "/watchlist", scored: false },
];
const WATCHED = [
  { state: "NY", license: "1268007" },
  { state: "NJ", license: "0101-33-005-003" },
  { state: "CA", license: "578170" },
  { state: "MA", license: "00780-RS-0116" },
];
const BUDGET = { cls: 0.02, desktop: 95, mobile: 90, accessibility: 100 };

const Audit = z.object({ numericValue: z.optional(z.number()) });
const LighthouseResult = z.object({
  categories: z.object({
    performance: z.object({ score: z.nullable(z.number()) }),
    accessibility: z.object({ score: z.nullable(z.number()) }),
  }),
  audits: z.object({
    "cumulative-layout-shift": Audit,
    "first-contentful-paint": Audit,
    "largest-contentful-paint": Audit,
    "total-blocking-time": Audit,
  }),
});

interface Figures {
  performance: number;
  accessibility: number;
  cls: number;
  fcp: number;
  lcp: number;
  tbt: number;
}

/** The real exports imported once into bench/.data/real.sqlite, with the project's own import. */
function realDatabase(): string {
  if (existsSync(REAL_DB) && !values.reimport) return REAL_DB;
  mkdirSync(BENCH_DIR, { recursive: true });
  const partial = `${REAL_DB}.partial`;
  rmSync(partial, { force: true });
  console.log(`importing ${DATA} into ${REAL_DB} (npm run import -- --all)`);
  const run = spawnSync("npm", ["--silent", "run", "import", "--", "--db", partial, "--all", DATA], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (run.status !== 0) throw new Error(`npm run import failed (${run.status})`);
  rmSync(REAL_DB, { force: true });
  renameSync(partial, REAL_DB);
  return REAL_DB;
}

/** One Lighthouse run in a fresh Chromium: the CLI as a clerk's tooling would run it. */
async function lighthouse(url: string, desktop: boolean, cookie: string): Promise<Figures> {
  const args = [
    LIGHTHOUSE,
    url,
    "--output=json",
    "--output-path=stdout",
    "--quiet",
    "--only-categories=performance,accessibility",
    `--chrome-flags=${CHROME_FLAGS.join(" ")}`,
    // Signed in, as a clerk opens it: without a session every page is the sign-in page.
    `--extra-headers=${JSON.stringify({ Cookie: cookie })}`,
    ...(desktop ? ["--preset=desktop"] : []),
  ];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, CHROME_PATH: CHROME },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`lighthouse ${url} exited with ${code}`);
  const { categories, audits } = z.parse(LighthouseResult, JSON.parse(out));
  return {
    performance: Math.round((categories.performance.score ?? 0) * 100),
    accessibility: Math.round((categories.accessibility.score ?? 0) * 100),
    cls: audits["cumulative-layout-shift"].numericValue ?? 0,
    fcp: audits["first-contentful-paint"].numericValue ?? 0,
    lcp: audits["largest-contentful-paint"].numericValue ?? 0,
    tbt: audits["total-blocking-time"].numericValue ?? 0,
  };
}

/** The run with the median performance score (Lighthouse's scores vary run to run). */
function median(figures: Figures[]): Figures {
  return [...figures].sort((a, b) => a.performance - b.performance)[Math.floor(figures.length / 2)]!;
}

const db = realDatabase();
const { key, revoke } = await createBenchKey(db, "npm run bench:pages");
const dir = mkdtempSync(join(tmpdir(), "bench-pages-"));
const stack = await startBuiltStack({ db, key, dir, env: { WATCH_CHECK_HOURS: "0" } });
const rows: (string | number)[][] = [];
try {
  const added = await fetch(`${stack.appUrl}/api/watchlist`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: stack.cookie },
    body: JSON.stringify({ rows: WATCHED.map((entry, i) => ({ row: i + 1, ...entry })) }),
  });
  if (!added.ok) throw new Error(`the watchlist refused its rows: ${added.status}`);
  for (const page of PAGES) {
    for (const desktop of [true, false]) {
      const figures: Figures[] = [];
      for (let run = 0; run < runs; run++)
        figures.push(await lighthouse(`${stack.appUrl}${page.path}`, desktop, stack.cookie));
      const m = median(figures);
      const scores = figures.map((f) => f.performance);
      const form = desktop ? "desktop" : "mobile";
      const met =
        m.cls <= BUDGET.cls &&
        m.accessibility === BUDGET.accessibility &&
        (!page.scored || m.performance >= BUDGET[form]);
      const row = [
        page.name,
        page.path,
        form,
        runs === 1 ? m.performance : `${m.performance} (${Math.min(...scores)}-${Math.max(...scores)})`,
        m.accessibility,
        m.cls.toFixed(3),
        `${(m.fcp / 1000).toFixed(1)} s`,
        `${(m.lcp / 1000).toFixed(1)} s`,
        `${Math.round(m.tbt)} ms`,
        verdict(met),
      ];
      console.log(row.join("  "));
      rows.push(row);
    }
  }
} finally {
  await stack.stop();
  await revoke();
  rmSync(dir, { recursive: true, force: true });
}

const report = [
  context,
  // Other work on the machine comes and goes: the start alone can flatter a run of several minutes.
  `- Load average at the end: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")}`,
  `- Lighthouse ${lighthouseVersion()} (\`--preset=desktop\`, and its default mobile run: a Moto G Power on a slow 4G network, simulated), ${runs === 1 ? "one run" : `the run of median performance of ${runs} (its figures shown; the range of the ${runs} scores beside it)`} per page and form, each in a fresh headless Chromium (${CHROME}). The built service (\`npm run api\`) over every export of \`../shared/data\` (imported once into \`bench/.data/real.sqlite\` by \`npm run import -- --all\`), behind the built app server (\`npm run serve\`); its watchlist holds ${WATCHED.length} licenses (${WATCHED.map((w) => `${w.state} ${w.license}`).join(", ")}).`,
  `- Budget: layout shift at most ${BUDGET.cls} on every page; performance at least ${BUDGET.desktop} on desktop and ${BUDGET.mobile} on mobile for the search, results, license and verify pages; accessibility ${BUDGET.accessibility}.`,
  "",
  markdownTable(
    [
      "page",
      "path",
      "form",
      runs === 1 ? "performance" : "performance (range)",
      "accessibility",
      "CLS",
      "FCP",
      "LCP",
      "TBT",
      "budget",
    ],
    rows,
  ),
].join("\n");
console.log(report);
writeResultsSection("Pages that hold still (issue 27): npm run bench:pages", report);

/**
 * Lighthouse's CLI, installed on first use into bench/.data/lighthouse (pinned): only this benchmark needs it, and
 * as a devDependency its 145 packages (Sentry, OpenTelemetry, Puppeteer: a quarter of node_modules) slowed every npm ci.
 */
function lighthouseCli(): string {
  const prefix = join(BENCH_DIR, "lighthouse");
  const cli = join(prefix, "node_modules/lighthouse/cli/index.js");
  if (!existsSync(cli)) {
    console.error(`Installing lighthouse@${LIGHTHOUSE_VERSION} into ${prefix} for this benchmark (once)…`);
    mkdirSync(prefix, { recursive: true });
    const installed = spawnSync(
      "npm",
      ["install", "--prefix", prefix, "--no-save", "--no-audit", "--no-fund", `lighthouse@${LIGHTHOUSE_VERSION}`],
      { stdio: ["ignore", "inherit", "inherit"] },
    );
    if (installed.status !== 0) {
      console.error(`error: npm could not install lighthouse@${LIGHTHOUSE_VERSION}; bench:pages needs it`);
      process.exit(1);
    }
  }
  return cli;
}

function lighthouseVersion(): string {
  return spawnSync(process.execPath, [LIGHTHOUSE, "--version"], { encoding: "utf8" }).stdout.trim();
}
