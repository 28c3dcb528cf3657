import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { nameFromUrl, pathInside, safeName } from "./download-name.ts";

const dir = mkdtempSync(join(tmpdir(), "download-name-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a download's name from a hostile link", () => {
  it.each([
    ["https://abc.nj.gov/reports/RETAIL-2026.xlsx", "RETAIL-2026.xlsx"],
    ["https://abc.nj.gov/reports/April%202026.xlsx", "April 2026.xlsx"],
    ["https://abc.nj.gov/reports/x%2F..%2F..%2Fevil.xlsx", "evil.xlsx"],
    ["https://abc.nj.gov/reports/..%2F..%2F..%2Fetc%2Fcron.d%2Fjob", "job"],
    ["https://abc.nj.gov/reports/%2E%2E", "download"],
    ["https://abc.nj.gov/reports/..%5C..%5Cwin.xlsx", "win.xlsx"],
    ["https://abc.nj.gov/reports/%2Fetc%2Fpasswd", "passwd"],
    ["https://abc.nj.gov/reports/a%00b%0A%0Dc%1F.xlsx", "abc.xlsx"],
    ["https://abc.nj.gov/reports/.hidden", "hidden"],
    ["https://abc.nj.gov/reports/%E0%A4%A.xlsx", "%E0%A4%A.xlsx"],
    ["https://abc.nj.gov/", "download"],
    ["https://abc.nj.gov/reports/con%3A%2A%3F.xlsx", "con___.xlsx"],
  ])("%s is kept as %s", (url, name) => {
    expect(nameFromUrl(url)).toBe(name);
    expect(dirname(pathInside(dir, nameFromUrl(url)))).toBe(dir);
  });

  it("is never longer than a file system takes", () => {
    expect(safeName(`${"é".repeat(400)}.xlsx`).length).toBeLessThanOrEqual(120);
  });

  it("is refused when not a plain name of the folder, rather than written elsewhere", () => {
    for (const name of ["../x", "/etc/passwd", "a/b", "..", "", "."]) {
      expect(() => pathInside(dir, name)).toThrow(/not a plain file name/);
    }
  });
});
