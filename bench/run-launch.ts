import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { DEMO_STATES } from "../server/data/demo/generate-licenses.ts";
import { fillDemo } from "../server/data/demo/fill-demo.ts";
import { openDatabase } from "../server/store/open-database.ts";
import { freePort } from "../server/testing/free-port.ts";
import { createBenchKey } from "./bench-key.ts";
import { percentiles } from "./percentiles.ts";
import { treeRssMb } from "./process-memory.ts";
import { npmCommand, runContext, writeResultsSection } from "./results-file.ts";
import { markdownTable } from "./table.ts";
import { applyLoad } from "./throughput.ts";

// Production runs `npm run build`'s esbuild bundle on plain node: this is what that saves over a TypeScript loader.
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const { values } = parseArgs({
  options: { rounds: { type: "string", default: "5" }, seconds: { type: "string", default: "3" } },
});
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const context = runContext(npmCommand("bench:launch"));
if (!existsSync(join(ROOT, "dist-server/cli/api.js")) || !existsSync(join(ROOT, "dist/index.html"))) {
  console.error("error: nothing built to measure: run npm run build first");
  process.exit(1);
}

const dir = mkdtempSync(join(tmpdir(), "bench-launch-"));
const file = join(dir, "licenses.sqlite");
const db = openDatabase(file, { create: true });
await fillDemo(db, DEMO_STATES, 2000);
db.close();
const { key, headers } = await createBenchKey(file, "npm run bench:launch");

type Way = { name: string; command: string[] };
const TSX = join(ROOT, "node_modules/.bin/tsx");
const node = process.execPath;
const ways = (source: string, bundle: string, script: string, args: string[]): Way[] => [
  { name: `\`tsx ${source}\` (the scripts before issue 11)`, command: [TSX, source, ...args] },
  { name: `\`node --import tsx ${source}\``, command: [node, "--import", "tsx", source, ...args] },
  { name: `\`node ${bundle}\` (the esbuild bundle)`, command: [node, bundle, ...args] },
  {
    name: `\`npm run ${script}\` (the bundle, npm's own process included)`,
    command: ["npm", "run", script, "--", ...args],
  },
];

interface Sample {
  processes: number;
  startMs: number;
  firstRss: number;
  loadedRss: number;
}

async function measure(
  way: Way,
  port: number,
  env: Record<string, string>,
  paths: string[],
  asked: Record<string, string>,
): Promise<Sample> {
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(way.command[0]!, way.command.slice(1), {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    await firstAnswer(`${url}${paths[0]}`, child, asked);
    const startMs = performance.now() - started;
    const first = treeRssMb(child.pid!);
    await applyLoad({ url, paths, headers: asked, seconds, connections: 10 });
    const loaded = treeRssMb(child.pid!);
    return { processes: first.processes, startMs, firstRss: first.mb, loadedRss: loaded.mb };
  } finally {
    await stop(child);
  }
}

async function firstAnswer(url: string, child: ChildProcess, asked: Record<string, string> = headers): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${child.spawnargs.join(" ")} exited with ${child.exitCode}`);
    try {
      await fetch(url, { headers: asked });
      return;
    } catch {
      await sleep(5);
    }
  }
}

/** A signed-in clerk's cookie on the app server's database in `env`: the server started once to sign them in. */
async function clerkSession(env: Record<string, string>, port: number): Promise<string> {
  const email = "bench@example.com";
  const password = "the bench's own password";
  const added = spawnSync(
    node,
    ["--import", "tsx", "server/cli/users.ts", "add", email, "--role", "member", "--password-stdin"],
    { cwd: ROOT, input: `${password}\n`, env: { ...process.env, APP_DB: env.APP_DB }, encoding: "utf8" },
  );
  if (added.status !== 0) throw new Error(`npm run users -- add failed: ${added.stderr}`);
  const child = spawn(node, ["dist-server/web/main.js"], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: "ignore",
  });
  try {
    await firstAnswer(`http://127.0.0.1:${port}/sign-in`, child);
    const answer = await fetch(`http://127.0.0.1:${port}/api/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    });
    const cookie = answer.headers.getSetCookie().find((c) => c.startsWith("lls_session="));
    if (!cookie) throw new Error(`the bench could not sign in: ${answer.status}`);
    return cookie.split(";", 1)[0]!;
  } finally {
    await stop(child);
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/** Rounds in which the ways take turns, so that other work on the machine falls on all of them alike. */
async function compare(
  ways: Way[],
  port: number,
  env: Record<string, string>,
  paths: string[],
  asked: Record<string, string> = headers,
) {
  const samples = ways.map((): Sample[] => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, way] of ways.entries()) {
      samples[i]!.push(await measure(way, port, env, paths, asked));
      console.log(`round ${round + 1}/${rounds}: ${way.name}`);
    }
  }
  const median = (list: Sample[], pick: (s: Sample) => number) => percentiles(list.map(pick)).p50;
  return ways.map((way, i) => {
    const list = samples[i]!;
    const starts = list.map((s) => s.startMs);
    return [
      way.name,
      Math.max(...list.map((s) => s.processes)),
      `${median(list, (s) => s.startMs).toFixed(0)} (${Math.min(...starts).toFixed(0)}-${Math.max(...starts).toFixed(0)})`,
      median(list, (s) => s.firstRss).toFixed(0),
      median(list, (s) => s.loadedRss).toFixed(0),
    ];
  });
}

const HEADER = [
  "command",
  "processes",
  "start-up to first answer, ms: median (min-max)",
  "RSS at first answer, MB",
  `RSS after ${seconds} s of load, MB`,
];
let apiRows, webRows;
// The service `npm run serve` forwards to, built, for every way of running the app's server.
const upstreamPort = await freePort();
const upstreamUrl = `http://127.0.0.1:${upstreamPort}`;
const upstream = spawn(
  node,
  ["dist-server/cli/api.js", "--db", file, "--port", String(upstreamPort), "--quiet", "--rate-limit", "0"],
  {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
  },
);
try {
  const apiPort = await freePort();
  const apiArgs = ["--db", file, "--port", String(apiPort), "--quiet", "--rate-limit", "0"];
  apiRows = await compare(ways("server/cli/api.ts", "dist-server/cli/api.js", "api", apiArgs), apiPort, {}, [
    "/v2/license/ny/0012345",
    "/v2/search?state=ny&name=tavern",
  ]);

  const webPort = await freePort();
  const webEnv = {
    LLS_BASE_URL: upstreamUrl,
    LLS_API_KEY: key,
    PORT: String(webPort),
    LOG: "0",
    APP_DB: join(dir, "app.sqlite"),
  };
  await firstAnswer(`${upstreamUrl}/v2/states`, upstream);
  // A clerk's session, made once: it is kept in the app's database, so each start of the server knows it.
  const session = await clerkSession(webEnv, webPort);
  webRows = await compare(
    ways("server/web/main.ts", "dist-server/web/main.js", "serve", []),
    webPort,
    webEnv,
    ["/", "/v2/license/ny/0012345"],
    { cookie: session },
  );
} finally {
  await stop(upstream);
  rmSync(dir, { recursive: true, force: true });
}

const report = [
  context,
  "",
  `- Each command is started ${rounds} times, the commands taking turns; figures are medians. Start-up: from spawn to the first HTTP answer (polled every 5 ms). RSS: VmRSS summed over the process and its descendants (/proc), at the first answer and after ${seconds} s of autocannon (10 connections) on the paths below.`,
  `- Data: the demo database \`npm start\` makes (${DEMO_STATES.join(", ")}; 2,000 licenses each), request log off, rate limit off.`,
  "",
  "### `npm run api`: /v2/license/ny/0012345 and /v2/search?state=ny&name=tavern",
  "",
  markdownTable(HEADER, apiRows),
  "",
  "### `npm run serve`: / (the built page) and /v2/license/ny/0012345 (forwarded to a built service)",
  "",
  markdownTable(HEADER, webRows),
].join("\n");
console.log(`\n${report}`);
writeResultsSection("Production start-up and memory: loader or bundle (issue 11): npm run bench:launch", report);
