import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// README and the guides it links to, as a newcomer reads them: the commands they name must run, and the links lead
// somewhere.
const ROOT = import.meta.dirname;
const GUIDES = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];
const text = (path: string) => readFileSync(join(ROOT, path), "utf8");
const scripts = Object.keys((JSON.parse(text("package.json")) as { scripts: Record<string, string> }).scripts);

/** Every script a guide names: `npm run X`, `npm run -s X -- …`, `npm start`, `npm test`. */
function namedScripts(markdown: string): string[] {
  const named = [...markdown.matchAll(/\bnpm run(?:\s+--?[a-z-]+)*\s+([\w:.-]+)/g)].map((match) => match[1]!);
  const shortcuts = [...markdown.matchAll(/\bnpm (start|test)\b/g)].map((match) => match[1]!);
  return [...new Set([...named, ...shortcuts])];
}

/** Every relative link and image target outside code, with its #anchor if any. */
function relativeLinks(markdown: string): { path: string; anchor: string | null }[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z][a-z+.-]*:/i.test(target))
    .map((target) => {
      const [path = "", anchor = null] = target.split("#");
      return { path, anchor };
    });
}

/** The anchors GitHub gives a file's headings. */
function headingAnchors(markdown: string): Set<string> {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, "");
  return new Set(
    [...prose.matchAll(/^#{1,6}\s+(.+)$/gm)].map((match) =>
      match[1]!
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, "")
        .replace(/\s/g, "-"),
    ),
  );
}

describe("README and docs/", () => {
  it.each(GUIDES)("%s names only npm scripts that exist", (guide) => {
    const missing = namedScripts(text(guide)).filter((name) => !scripts.includes(name));
    expect(missing, `not scripts of package.json: ${missing.join(", ")}`).toEqual([]);
  });

  it("finds the commands a guide names, flags and arguments aside", () => {
    expect(namedScripts("`npm run -s keys -- create --states all`, npm run bench:load, `npm start`")).toEqual([
      "keys",
      "bench:load",
      "start",
    ]);
  });

  it("README starts a newcomer: under 260 lines, the two commands in its first 40", () => {
    const lines = text("README.md").split("\n");
    expect(lines.length).toBeLessThan(260);
    const opening = lines.slice(0, 40).join("\n");
    expect(opening).toContain("npm install && npm start");
    expect(opening).toMatch(/^npm test\b/m);
  });

  it.each(GUIDES)("%s links and shows only files that exist", (guide) => {
    const broken = relativeLinks(text(guide)).flatMap(({ path, anchor }) => {
      const target = path === "" ? guide : relative(ROOT, join(ROOT, dirname(guide), path));
      if (!existsSync(join(ROOT, target))) return [`${path} (no such file)`];
      if (anchor && target.endsWith(".md") && !headingAnchors(text(target)).has(anchor)) {
        return [`${path}#${anchor} (no such heading in ${target})`];
      }
      return [];
    });
    expect(broken).toEqual([]);
  });
});
