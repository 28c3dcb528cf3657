import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";

/**
 * `npm run size`: the JavaScript a first visit loads before the page shows, gzipped, from Vite's build manifest.
 * That is the entry chunk and its imports, plus whichever lazy route the address opens with its own imports;
 * the budget holds for the heaviest such first page.
 */
const BUDGET_KB = 125;
const dist = resolve(process.argv[2] ?? "dist");

interface Chunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

let manifest: Record<string, Chunk>;
try {
  manifest = JSON.parse(readFileSync(join(dist, ".vite", "manifest.json"), "utf8")) as Record<string, Chunk>;
} catch {
  console.error(`error: no build manifest in ${dist}: run npm run build first`);
  process.exit(1);
}

/** A chunk and everything it imports statically: what must arrive before it runs. */
function closure(key: string, into = new Set<string>()): Set<string> {
  if (into.has(key)) return into;
  into.add(key);
  for (const dep of manifest[key]!.imports ?? []) closure(dep, into);
  return into;
}

const gzipped = (key: string) => gzipSync(readFileSync(join(dist, manifest[key]!.file)), { level: 9 }).length;
const sum = (keys: Iterable<string>) => [...keys].reduce((total, key) => total + gzipped(key), 0);
const kB = (bytes: number) => `${(bytes / 1000).toFixed(1).padStart(6)} kB`;

const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry)!;
const initial = closure(entryKey);
const initialBytes = sum(initial);
console.log(`${kB(initialBytes)}  entry: ${[...initial].map((k) => manifest[k]!.file).join(", ")}`);

let heaviest = initialBytes;
for (const route of manifest[entryKey]!.dynamicImports ?? []) {
  const extra = [...closure(route)].filter((key) => !initial.has(key));
  const bytes = initialBytes + sum(extra);
  heaviest = Math.max(heaviest, bytes);
  console.log(`${kB(bytes)}  first page through ${route} (+ ${extra.map((k) => manifest[k]!.file).join(", ")})`);
}

const within = heaviest / 1000 <= BUDGET_KB;
console.log(
  `${kB(heaviest)}  initial JavaScript, gzipped, heaviest first page: ${within ? "within" : "OVER"} the ${BUDGET_KB} kB budget`,
);
if (!within) process.exit(1);
