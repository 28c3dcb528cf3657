import { readFileSync } from "node:fs";
import { join } from "node:path";

interface Chunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

// The app's pages (src/app/router.tsx) and the module each loads lazily; a license page also loads its state's
// decoding table. Each module is a key of Vite's build manifest.
const PAGES: { path: RegExp; module: (match: RegExpMatchArray) => string[] }[] = [
  { path: /^\/$/, module: () => ["src/search/search-page.tsx"] },
  {
    path: /^\/license\/([a-z]{2})\//,
    module: ([, state]) => ["src/license/license-route.tsx", `src/contract/decoding/${state}.json`],
  },
  { path: /^\/verify$/, module: () => ["src/verify/verify-page.tsx"] },
  { path: /^\/watchlist$/, module: () => ["src/watchlist/watchlist-page.tsx"] },
  { path: /^\/data$/, module: () => ["src/coverage/data-page.tsx"] },
];

/**
 * The `Link` header that sends an app page with its own code: the chunks the page's route loads after the entry
 * (and everything they import), as `modulepreload`, so the browser asks for them with the entry rather than once
 * the entry has run and found out which page it is on. Null for a path that needs nothing more, or without a
 * build manifest.
 */
export function pagePreloads(distDir: string): (pathname: string) => string | null {
  let manifest: Record<string, Chunk>;
  try {
    manifest = JSON.parse(readFileSync(join(distDir, ".vite", "manifest.json"), "utf8")) as Record<string, Chunk>;
  } catch {
    return () => null;
  }
  const closure = (key: string, into = new Set<string>()): Set<string> => {
    if (into.has(key) || !manifest[key]) return into;
    into.add(key);
    for (const dep of manifest[key].imports ?? []) closure(dep, into);
    return into;
  };
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  // index.html itself names the entry's own chunks.
  const loaded = entry ? closure(entry) : new Set<string>();
  const headers = new Map<string, string | null>();
  const header = (modules: string[]) => {
    const id = modules.join(" ");
    if (!headers.has(id)) {
      const chunks = new Set<string>();
      for (const module of modules) closure(module, chunks);
      const links = [...chunks]
        .filter((key) => !loaded.has(key))
        .map((key) => `</${manifest[key]!.file}>; rel=modulepreload`);
      headers.set(id, links.length ? links.join(", ") : null);
    }
    return headers.get(id)!;
  };
  return (pathname) => {
    for (const page of PAGES) {
      const match = pathname.match(page.path);
      if (match) return header(page.module(match));
    }
    return null;
  };
}
