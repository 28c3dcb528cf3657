import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { z } from "zod/mini";
import { fillDemo } from "../server/data/demo/fill-demo.ts";
import { generateLicenses } from "../server/data/demo/generate-licenses.ts";
import { deriveSeed, SeededRandom } from "../server/data/demo/seeded-random.ts";
import { DEFAULT_RATE_LIMIT } from "../server/service/rate-limit.ts";
import { openDatabase } from "../server/store/open-database.ts";
import { DEFAULT_CACHE_TTL_MS } from "../server/web/web-app.ts";
import { CheckResponseSchema, LastCheckResponseSchema, WATCHLIST_API } from "../src/contract/watchlist.ts";
import { createBenchKey } from "./bench-key.ts";
import { requireBuild, startBuiltStack } from "./built-stack.ts";
import { percentiles } from "./percentiles.ts";
import { npmCommand, runContext, writeResultsSection } from "./results-file.ts";
import { markdownTable, pct } from "./table.ts";

// `npm run bench:typing`: ten clerks typing business names into instant search at once, through the built app
// server and its one API key, while the watchlist checks 10,000 licenses through the same key. Each keystroke
// asks what the app asks: the search with the provenance of its results, one request. Is anyone rate limited?
const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "30" },
    clerks: { type: "string", default: "10" },
    watched: { type: "string", default: "10000" },
  },
});
const seconds = Number(values.seconds);
const clerkCount = Number(values.clerks);
const watched = Number(values.watched);
const context = runContext(npmCommand("bench:typing"));
requireBuild();

const STATES = ["ny", "ma"];
const dir = mkdtempSync(join(tmpdir(), "bench-typing-"));
const file = join(dir, "licenses.sqlite");
const db = openDatabase(file, { create: true });
const perState = Math.max(2000, Math.ceil(watched / STATES.length));
await fillDemo(db, STATES, perState);
db.close();
const held = Object.fromEntries(STATES.map((state) => [state, [...generateLicenses(state, perState)]]));
const { key } = await createBenchKey(file, "npm run bench:typing");

// What a clerk types to find a business: its first two words, as a person writes them.
const typedNames = (state: string) =>
  held[state]!.map((l) => l.business.toLowerCase().split(" ").slice(0, 2).join(" ")).filter((n) => n.length >= 4);

interface Sample {
  status: number;
  ms: number;
  cached: boolean;
}

/** One keystroke, as the app sends it: the search for what is typed, with where its results come from. */
async function keystroke(
  appUrl: string,
  state: string,
  typed: string,
  samples: Sample[],
  cookie: string,
): Promise<number> {
  const began = performance.now();
  const response = await fetch(`${appUrl}/v2/search-with-provenance?${new URLSearchParams({ state, name: typed })}`, {
    headers: { accept: "application/json", cookie },
  });
  await response.arrayBuffer();
  samples.push({ status: response.status, ms: performance.now() - began, cached: response.headers.has("age") });
  return performance.now() - began;
}

/** A clerk typing one name after another, a keystroke every 150-250 ms, never waiting for an answer. */
async function clerk(
  appUrl: string,
  cookie: string,
  index: number,
  until: number,
  samples: Sample[],
  keystrokes: number[],
) {
  const rng = new SeededRandom(deriveSeed(17, `clerk ${index}`));
  const state = STATES[index % STATES.length]!;
  const names = typedNames(state);
  const inFlight: Promise<void>[] = [];
  while (performance.now() < until) {
    const name = rng.pick(names);
    for (let n = 1; n <= name.length && performance.now() < until; n++) {
      inFlight.push(keystroke(appUrl, state, name.slice(0, n), samples, cookie).then((ms) => void keystrokes.push(ms)));
      await sleep(rng.int(150, 250));
    }
  }
  await Promise.all(inFlight);
}

const watchApi = (appUrl: string) => `${appUrl}${WATCHLIST_API}`;

async function fillWatchlist(appUrl: string, cookie: string) {
  const rows = STATES.flatMap((state) => held[state]!.map((l) => ({ state, license: l.license })))
    .slice(0, watched)
    .map((l, i) => ({ row: i + 1, ...l }));
  const response = await fetch(watchApi(appUrl), {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ rows }),
  });
  if (!response.ok) throw new Error(`adding to the watchlist answered ${response.status}`);
}

interface Scenario {
  label: string;
  apiArgs: string[];
  cacheSeconds: number;
}

const limitArgs = (perSecond: number, burst: number) => ["--rate-limit", String(perSecond), "--burst", String(burst)];
const BEFORE = { perSecond: 20, burst: 40 };
const { perSecond, burst } = DEFAULT_RATE_LIMIT;
const cacheDefault = DEFAULT_CACHE_TTL_MS / 1000;
const scenarios: Scenario[] = [
  {
    label: `${BEFORE.perSecond}/s, bursts of ${BEFORE.burst}; no cache (before)`,
    apiArgs: limitArgs(BEFORE.perSecond, BEFORE.burst),
    cacheSeconds: 0,
  },
  {
    label: `${BEFORE.perSecond}/s, bursts of ${BEFORE.burst}; ${cacheDefault} s cache`,
    apiArgs: limitArgs(BEFORE.perSecond, BEFORE.burst),
    cacheSeconds: cacheDefault,
  },
  { label: `${perSecond}/s, bursts of ${burst}; no cache`, apiArgs: [], cacheSeconds: 0 },
  {
    label: `${perSecond}/s, bursts of ${burst}; ${cacheDefault} s cache (now: the defaults)`,
    apiArgs: [],
    cacheSeconds: cacheDefault,
  },
];

const rows: string[][] = [];
let filled = false;
try {
  for (const scenario of scenarios) {
    const stack = await startBuiltStack({
      db: file,
      key,
      dir,
      apiArgs: scenario.apiArgs,
      // The watchlist file stays in `dir` from one scenario to the next: filled once, checked in each.
      env: { WATCH_CHECK_HOURS: "0", LLS_CACHE_SECONDS: String(scenario.cacheSeconds) },
    });
    try {
      if (!filled && watched > 0) {
        await fillWatchlist(stack.appUrl, stack.cookie);
        filled = true;
      }
      // A fresh rate-limit window for the clerks: the fill's requests are behind us.
      await sleep(2_500);
      const checkStarted = performance.now();
      if (watched > 0) {
        z.parse(
          CheckResponseSchema,
          await (
            await fetch(`${watchApi(stack.appUrl)}/check`, { method: "POST", headers: { cookie: stack.cookie } })
          ).json(),
        );
      }
      const samples: Sample[] = [];
      const keystrokes: number[] = [];
      const began = performance.now();
      const until = began + seconds * 1000;
      await Promise.all(
        Array.from({ length: clerkCount }, (_, i) => clerk(stack.appUrl, stack.cookie, i, until, samples, keystrokes)),
      );
      const elapsed = (performance.now() - began) / 1000;
      let checkSeconds = "";
      if (watched > 0) {
        for (;;) {
          const check = z.parse(
            LastCheckResponseSchema,
            await (await fetch(`${watchApi(stack.appUrl)}/check`, { headers: { cookie: stack.cookie } })).json(),
          ).data;
          if (check?.finished_at) {
            checkSeconds = check.error
              ? `failed: ${check.error}`
              : `${((performance.now() - checkStarted) / 1000).toFixed(1)} s`;
            break;
          }
          await sleep(250);
        }
      }
      const limited = samples.filter((s) => s.status === 429).length;
      const failed = samples.filter((s) => s.status !== 200 && s.status !== 429).length;
      const hits = samples.filter((s) => s.cached).length;
      const latency = percentiles(samples.map((s) => s.ms));
      const typing = percentiles(keystrokes);
      rows.push([
        scenario.label,
        samples.length.toLocaleString("en-US"),
        (samples.length / elapsed).toFixed(0),
        pct(hits / samples.length),
        `${limited} (${pct(limited / samples.length)})`,
        String(failed),
        `${latency.p50.toFixed(1)} / ${latency.p95.toFixed(1)} / ${latency.p99.toFixed(1)}`,
        typing.p95.toFixed(1),
        checkSeconds,
      ]);
      console.log(rows.at(-1)!.join(" | "));
    } finally {
      await stack.stop();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const report = [
  context,
  `- ${clerkCount} clerks for ${seconds} s, each typing the first two words of demo business names (half New York, half Massachusetts), a keystroke every 150-250 ms, without pausing between names and without waiting for answers. Each keystroke sends what the app sends: \`GET /v2/search-with-provenance?state=..&name=..\` (the search with where its results come from), through the built app server (\`npm run serve\`) to the built service (\`npm run api\`), one API key for all.`,
  `- Meanwhile the watchlist checks ${watched.toLocaleString("en-US")} licenses through the same key (\`POST ${WATCHLIST_API}/check\` as the typing begins), at its pace of at most 8 requests/s; its time is from the press to its \`finished_at\`.`,
  "- Each row is a fresh pair of processes: the service's rate limit (`--rate-limit`, `--burst`) and the app server's cache (`LLS_CACHE_SECONDS`) as given. Cache hits are the answers that carried `Age`. Latency is each request's, at the clerk; a keystroke is one request.",
  "",
  markdownTable(
    [
      "rate limit per key; proxy cache",
      "requests",
      "req/s",
      "from cache",
      "429",
      "other errors",
      "p50 / p95 / p99 ms",
      "keystroke p95 ms",
      `watchlist check`,
    ],
    rows,
  ),
].join("\n");
console.log(report);
writeResultsSection("Ten clerks typing on one key (issue 17): npm run bench:typing", report);
