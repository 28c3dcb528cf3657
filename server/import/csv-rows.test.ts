import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { csvRows } from "./csv-rows.ts";
import type { RawRow } from "./raw-row.ts";

async function rows(text: string): Promise<RawRow[]> {
  const out: RawRow[] = [];
  for await (const row of csvRows(Readable.from([Buffer.from(text)]))) out.push(row);
  return out;
}

describe("csvRows", () => {
  it("gives each record the line it starts on, across quoted line breaks and blank lines", async () => {
    const result = await rows('\uFEFFa,b\r\n1,"two\r\nlines"\r\n\r\n3,4\r\n');
    expect(result).toEqual([
      { line: 1, cells: ["a", "b"] },
      { line: 2, cells: ["1", "two\r\nlines"] },
      { line: 5, cells: ["3", "4"] },
    ]);
  });

  it("keeps going after a record it cannot parse, and says where that record was", async () => {
    const result = await rows('a,b\n1,2\n"3,4\n');
    expect(result).toEqual([
      { line: 1, cells: ["a", "b"] },
      { line: 2, cells: ["1", "2"] },
      { line: 3, problem: "unparseable CSV (a quote is never closed)" },
    ]);
  });

  it("reads a stray quote inside a field as text", async () => {
    expect(await rows('a,b\n9,"x"y\n11,12\n')).toEqual([
      { line: 1, cells: ["a", "b"] },
      { line: 2, cells: ["9", '"x"y'] },
      { line: 3, cells: ["11", "12"] },
    ]);
  });
});
