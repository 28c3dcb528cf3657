import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Page } from "@playwright/test";
import { openDatabase } from "../server/store/open-database.ts";
import { createBenchKey } from "./bench-key.ts";
import { BENCH_STATES, BIG_STATE, ensureBenchDb } from "./build-bench-db.ts";
import { launchChromium, requireBuild, startBuiltStack } from "./built-stack.ts";
import { EXAMPLE_QUERIES } from "./example-queries.ts";
import { percentiles } from "./percentiles.ts";
import { queryMixOf } from "./query-mix.ts";
import { npmCommand, runContext, writeResultsSection } from "./results-file.ts";
import { markdownTable } from "./table.ts";

// `npm run bench:ui`: a clerk typing names into the search box in Chromium, from each keystroke to the
// results for what the box then holds painted, over the 1,000,000-record state.
const { values } = parseArgs({ options: { rounds: { type: "string", default: "3" } } });
const rounds = Number(values.rounds);
const BUDGET = { p50: 20, p95: 30 };
const context = runContext(npmCommand("bench:ui"));
requireBuild();

const built = await ensureBenchDb();
const db = openDatabase(built.file);
const mix = queryMixOf(db, BIG_STATE, built.builtAt ?? "unknown");
db.close();
// What a clerk types by name: the mix's name classes (words out of order among them) and the examples; one
// character never searches.
const queries = [...mix, ...EXAMPLE_QUERIES].filter((query) => query.by === "name" && query.q.length >= 2);
const { key, revoke } = await createBenchKey(built.file, "npm run bench:ui");
const dir = mkdtempSync(join(tmpdir(), "bench-ui-"));
// The proxy's answer cache off: every keystroke's search is worked out by the service, as on a first visit.
const stack = await startBuiltStack({ db: built.file, key, dir, env: { LLS_CACHE_SECONDS: "0" } });
const browser = await launchChromium();

/** Where the page's main thread spent a key's time, from one more round traced (not timed: tracing slows it). */
let mainThread: MainThreadWork | null = null;

/** Each counted keystroke's timing, with the name it was part of. */
const timings: (Timing & { name: string })[] = [];
/** The same keystrokes' timings on a bare page: the floor under any page on this machine. */
const floor: Timing[] = [];
let missed = 0;
try {
  for (let round = 0; round < rounds; round++) {
    // One page a round, as a clerk keeps the app open: each name typed over the last.
    const page = await openSearchPage();
    await typeEveryName(page, (q, timing) => {
      if (timing === null) missed += 1;
      else timings.push({ ...timing, name: q });
    });
    await page.close();
    // By turns with the app's rounds, so the machine's other work moves both alike.
    const bare = await openBarePage();
    await typeEveryName(bare, (_q, timing) => {
      if (timing !== null) floor.push(timing);
    });
    await bare.close();
  }
  mainThread = await tracedRound();
} finally {
  await browser.close();
  await stack.stop();
  await revoke();
  rmSync(dir, { recursive: true, force: true });
}

/**
 * A keystroke's ms to its results on screen, and where they went: from the keydown to the search request, its
 * round trip, from its answer to the results in the page, to the next frame, and that frame's own work.
 */
interface Timing {
  ms: number;
  search: number;
  request: number;
  toPage: number;
  toFrame: number;
  frame: number;
}

/** Milliseconds of the renderer's main thread per key pressed, by kind of work, and the keys pressed. */
type MainThreadWork = { keys: number; perKey: Record<WorkKind, number> };
type WorkKind = "key" | "script" | "layout" | "paint" | "other";

/**
 * One more round with Chromium's trace on, each key pressed once the last one's results were on screen: the
 * main thread's work per key, its trace events' own time (less the events inside them) sorted into Chromium's
 * handling of the key (the key events, the text put into the box), the app's script (its handlers, the answer
 * parsed, React), style and layout, paint, and the rest (messages from the other processes, tasks).
 */
async function tracedRound(): Promise<MainThreadWork> {
  const page = await openSearchPage();
  await browser.startTracing(page, { categories: ["devtools.timeline", "v8.execute"] });
  const keys = await typeEveryName(page, () => {});
  const trace = JSON.parse((await browser.stopTracing()).toString("utf8")) as { traceEvents: TraceEvent[] };
  await page.close();
  return { keys, perKey: ownTimeByKind(trace.traceEvents, keys) };
}

/** A fresh page of the search by name, as a clerk finds it: the page and its list of states loaded. */
async function openSearchPage(): Promise<Page> {
  const page = await stack.newPage(browser);
  // tsx names nested functions with a helper the page lacks (`__name`): the page gets it too.
  await page.addInitScript({ content: `var __name = (f) => f; (${recordKeystrokeToPaint.toString()})();` });
  await page.goto(`${stack.appUrl}/?state=${BIG_STATE}&by=name`, { waitUntil: "networkidle" });
  return page;
}

/**
 * The floor: a page of nothing but a box, on the app's origin, that asks the same search through the same app
 * server at each keystroke and, with its answer, writes one heading and one line, which the same recorder times.
 * What any page would take here: the keystroke, the round trip, the frame.
 */
async function openBarePage(): Promise<Page> {
  const page = await stack.newPage(browser);
  await page.goto(`${stack.appUrl}/healthz`);
  await page.setContent(
    `<input id="search-term"><section aria-busy="false"><h2 id="results-heading"></h2><p role="status"></p></section>`,
  );
  await page.evaluate(`var __name = (f) => f; (${recordKeystrokeToPaint.toString()})();`);
  await page.evaluate((state) => {
    const input = document.getElementById("search-term") as HTMLInputElement;
    const answers = new Map<string, number>();
    const show = (q: string, found: number) => {
      document.getElementById("results-heading")!.textContent = `Results for “${q}”`;
      document.querySelector("[role=status]")!.textContent = `${found} found`;
    };
    input.addEventListener("input", () => {
      const q = input.value.trim();
      if ([...q].length < 2) return;
      if (answers.has(q)) return show(q, answers.get(q)!);
      void fetch(`/v2/search-with-provenance?${new URLSearchParams({ state, name: q })}`, {
        headers: { Accept: "application/json" },
      })
        .then((response) => response.json() as Promise<{ data: { licenses: unknown[] } }>)
        .then((body) => {
          answers.set(q, body.data.licenses.length);
          show(q, body.data.licenses.length);
        });
    });
  }, BIG_STATE);
  return page;
}

/**
 * Every query typed into the Name box in turn (the box emptied between them), one key at a time, each key pressed
 * once the last one's results were on screen; `shown` gets each name not typed before on this page, with its
 * timing (null: no results within 5 s). The keys pressed.
 */
async function typeEveryName(page: Page, shown: (q: string, timing: Timing | null) => void): Promise<number> {
  const box = page.locator("#search-term");
  // A name typed again (`new y` of `new york`, then of `new yrok`) is answered from the app's cache: not counted.
  const typed = new Set<string>();
  let keys = 0;
  for (const { q } of queries) {
    await box.fill("");
    await box.focus();
    for (let i = 0; i < q.length; i++) {
      await page.keyboard.type(q[i]!);
      keys += 1;
      // What the box now holds, worked out here: asking the page would take its main thread from what is measured.
      const now = q.slice(0, i + 1).trim();
      if ([...now].length < 2 || typed.has(now)) continue;
      typed.add(now);
      shown(q, await keystrokeToPaint(page, now));
    }
  }
  return keys;
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { type?: string } };
}

/** Each main-thread event's own time (its duration less its children's), summed by kind, per key. */
function ownTimeByKind(events: TraceEvent[], keys: number): Record<WorkKind, number> {
  const KIND_OF: Record<string, WorkKind> = {
    EventDispatch: "key",
    FunctionCall: "script",
    EvaluateScript: "script",
    "v8.compile": "script",
    "v8.callFunction": "script",
    "v8.run": "script",
    RunMicrotasks: "script",
    TimerFire: "script",
    FireAnimationFrame: "script",
    MinorGC: "script",
    MajorGC: "script",
    UpdateLayoutTree: "layout",
    Layout: "layout",
    PrePaint: "paint",
    Paint: "paint",
    Layerize: "paint",
    Commit: "paint",
    UpdateLayer: "paint",
  };
  const main = new Set(
    events.filter((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain").map((e) => `${e.pid}:${e.tid}`),
  );
  const spans = events
    .filter((e) => e.ph === "X" && e.dur !== undefined && main.has(`${e.pid}:${e.tid}`))
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const sums: Record<WorkKind, number> = { key: 0, script: 0, layout: 0, paint: 0, other: 0 };
  // The open spans, outermost first: a span's own time is what its children leave.
  const open: { end: number; kind: WorkKind; own: number }[] = [];
  const close = (until: number) => {
    while (open.length && open.at(-1)!.end <= until) {
      const span = open.pop()!;
      sums[span.kind] += span.own;
    }
  };
  for (const e of spans) {
    close(e.ts);
    const parent = open.at(-1);
    if (parent) parent.own -= e.dur!;
    // Key events are Chromium's handling of the key; an app's handler inside one is a FunctionCall of its own.
    const kind =
      KIND_OF[e.name] === "key" &&
      !/^key|^textInput|^beforeinput|^input|^selectionchange/.test(e.args?.data?.type ?? "")
        ? "other"
        : (KIND_OF[e.name] ?? (parent?.kind === "script" ? "script" : "other"));
    open.push({ end: e.ts + e.dur!, kind, own: e.dur! });
  }
  close(Infinity);
  const perKey = (us: number) => us / 1000 / keys;
  return {
    key: perKey(sums.key),
    script: perKey(sums.script),
    layout: perKey(sums.layout),
    paint: perKey(sums.paint),
    other: perKey(sums.other),
  };
}

/** Waits for the results for `q` on screen: the timing from its keystroke, or null after 5 s without them. */
async function keystrokeToPaint(page: Page, q: string): Promise<Timing | null> {
  // Asked of the page once, which answers when they are: polling from here would take CPU from what is measured.
  return page.evaluate(
    (typed) =>
      (window as unknown as { __keystrokeToPaint: (q: string) => Promise<Timing | null> }).__keystrokeToPaint(typed),
    q,
  );
}

/**
 * In the page, before the app: for each keystroke that changes the name typed (2 characters or more),
 * the time from its keydown to the frame after the results for that name are on screen (the heading names
 * it, the list is no longer busy nor showing the previous answer), measured by the page's own clock.
 */
function recordKeystrokeToPaint() {
  const marks = new Map<string, Timing>();
  const waiting = new Map<string, (timing: Timing) => void>();
  (window as unknown as { __keystrokeToPaint: (q: string) => Promise<Timing | null> }).__keystrokeToPaint = (q) =>
    new Promise((resolve) => {
      if (marks.has(q)) return resolve(marks.get(q)!);
      waiting.set(q, resolve);
      setTimeout(() => resolve(null), 5000);
    });
  let keyAt = 0;
  const seen = new Set<string>();
  addEventListener("keydown", (event) => (keyAt = event.timeStamp), true);
  addEventListener(
    "input",
    (event) => {
      const input = event.target;
      if (!(input instanceof HTMLInputElement) || input.id !== "search-term") return;
      const q = input.value.trim();
      if ([...q].length < 2 || seen.has(q)) return;
      seen.add(q);
      const started = keyAt;
      const shown = () => {
        const heading = document.getElementById("results-heading");
        const section = heading?.closest("section");
        const status = section?.querySelector("[role=status]")?.textContent ?? "";
        return (
          heading?.textContent?.includes(`“${q}”`) &&
          section?.getAttribute("aria-busy") === "false" &&
          !status.startsWith("Searching")
        );
      };
      const observer = new MutationObserver(() => {
        if (!shown()) return;
        observer.disconnect();
        const inPage = performance.now();
        // The frame that shows them: the next animation frame, then the task after its paint.
        requestAnimationFrame(() => {
          const frameAt = performance.now();
          const channel = new MessageChannel();
          channel.port1.onmessage = () => {
            const ms = performance.now() - started;
            // Where the time went: the search's round trip (with the provenance of its results), by Resource Timing.
            const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
            const search = resources.findLast(
              (r) => r.name.includes("/v2/search-with-provenance?") && new URL(r.name).searchParams.get("name") === q,
            );
            marks.set(q, {
              ms,
              search: search ? search.responseEnd - search.startTime : 0,
              request: search ? search.startTime - started : 0,
              toPage: search ? inPage - search.responseEnd : 0,
              toFrame: frameAt - inPage,
              frame: performance.now() - frameAt,
            });
            waiting.get(q)?.(marks.get(q)!);
          };
          channel.port2.postMessage(null);
        });
      });
      observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
      setTimeout(() => observer.disconnect(), 10_000);
    },
    true,
  );
}

const all = timings.map((timing) => timing.ms);
const overall = percentiles(all);
const rows = queries.map(({ label, q }) => {
  const samples = timings.filter((timing) => timing.name === q).map((timing) => timing.ms);
  if (samples.length === 0) return [label, `name=${q}`, "0 (typed before)", "", "", ""];
  const p = percentiles(samples);
  return [label, `name=${q}`, String(p.n), p.p50.toFixed(1), p.p95.toFixed(1), p.p99.toFixed(1)];
});
rows.push(["all", "", String(overall.n), overall.p50.toFixed(1), overall.p95.toFixed(1), overall.p99.toFixed(1)]);
const median = (pick: (t: Timing) => number) => percentiles(timings.map(pick)).p50.toFixed(1);
const report = [
  context,
  `- Data: the \`npm run bench\` database (${BIG_STATE} ${BENCH_STATES[BIG_STATE]!.toLocaleString("en-US")} records). The built service (\`npm run api\`, its default rate limit) behind the built app server (\`npm run serve\`, its answer cache off: \`LLS_CACHE_SECONDS=0\`), in Chromium.`,
  `- ${rounds} rounds, each a fresh page kept open as a clerk keeps the app: every name-mode query of the bench mix (words out of order among them) and of the example queries typed into the Name box in turn (the box emptied between them), one key at a time, each key pressed once the last one's results were on screen. A keystroke counts when it makes a name not typed before on that page (2 characters or more, spaces at the ends aside; one typed before comes from the app's cache): from its keydown to the next frame after the results for it are on screen (the heading names it, the results are no longer busy or the previous answer), by the page's clock. Each is one request, the search with where its results come from (\`/v2/search-with-provenance\`), through the app server to the service.`,
  `- Keystroke to results on screen: p50 ${overall.p50.toFixed(1)} ms, budget <= ${BUDGET.p50} ms: ${overall.p50 <= BUDGET.p50 ? "met" : "**missed**"}; p95 ${overall.p95.toFixed(1)} ms, budget <= ${BUDGET.p95} ms: ${overall.p95 <= BUDGET.p95 ? "met" : "**missed**"}.${missed ? ` ${missed} keystroke(s) showed no results within 5 s.` : ""}`,
  `- Where a keystroke's time goes, medians: from the keydown to the search's request ${median((t) => t.request)} ms; its round trip from the browser through the app server to the service ${median((t) => t.search)} ms; from its answer to the results in the page ${median((t) => t.toPage)} ms; from there to the next frame ${median((t) => t.toFrame)} ms (Chromium draws at 60 frames a second: half a frame, 8.3 ms, on average); that frame ${median((t) => t.frame)} ms. All but the round trip (the page's work, and the browser's own with its frames): ${median((t) => t.ms - t.search)} ms.`,
  floorLine(),
  mainThread ? mainThreadLine(mainThread) : "",
  "",
  markdownTable(["class", "typed", "keystrokes", "p50 ms", "p95 ms", "p99 ms"], rows),
].join("\n");
console.log(report);
writeResultsSection("Keystroke to results on screen (issue 17): npm run bench:ui", report);

function floorLine(): string {
  if (floor.length === 0) return "";
  const bare = percentiles(floor.map((timing) => timing.ms));
  const above = (a: number, b: number) => `${a - b >= 0 ? "+" : "−"}${Math.abs(a - b).toFixed(1)}`;
  return `- The floor under any page here: the same keystrokes, by turns with the app's rounds, into a bare page on the app's origin (a box that asks the same search through the same app server and writes one heading and one line with its answer; no React, no router; a name typed before shown from its own map of answers), timed the same way: p50 ${bare.p50.toFixed(1)} ms, p95 ${bare.p95.toFixed(1)} ms (${bare.n} keystrokes; its round trip ${percentiles(floor.map((t) => t.search)).p50.toFixed(1)} ms, from its answer to the frame's end ${percentiles(floor.map((t) => t.toPage + t.toFrame + t.frame)).p50.toFixed(1)} ms, medians). The app above it: p50 ${above(overall.p50, bare.p50)} ms, p95 ${above(overall.p95, bare.p95)} ms.`;
}

function mainThreadLine({ keys, perKey }: MainThreadWork): string {
  const total = Object.values(perKey).reduce((a, b) => a + b, 0);
  const ms = (n: number) => n.toFixed(1);
  return `- The page's main thread, one more round traced (${keys} keys pressed; tracing slows it, so its figures are shares rather than times): ${ms(total)} ms of work per key pressed, of which Chromium's own handling of the key (its key events, the text put into the box) ${ms(perKey.key)} ms, the app's script (its handlers, the answer parsed, React) ${ms(perKey.script)} ms, style and layout ${ms(perKey.layout)} ms, paint ${ms(perKey.paint)} ms, and the rest (messages from the browser's other processes, task scheduling) ${ms(perKey.other)} ms.`;
}
