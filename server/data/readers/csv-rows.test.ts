import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { csvRows } from "./csv-rows.ts";
import type { RawRow } from "./table.ts";

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

  it("names every line a stray quote made unreadable, and goes on after them", async () => {
    expect(await rows('a,b\n9,"x"y\n11,12\n"13",14\n15,16\n')).toEqual([
      { line: 1, cells: ["a", "b"] },
      { line: 2, problem: "unparseable CSV (malformed quotes: lines 2-4 could not be read as rows)" },
      { line: 5, cells: ["15", "16"] },
    ]);
    expect(await rows('a,b\n9,"x"y\n11,12\n')).toEqual([
      { line: 1, cells: ["a", "b"] },
      { line: 2, problem: "unparseable CSV (a quote is never closed: lines 2-3 could not be read as rows)" },
    ]);
  });

  it("reads a quote inside an unquoted field as text", async () => {
    expect(await rows('a,b\n9,x"y"z\n11,12\n')).toEqual([
      { line: 1, cells: ["a", "b"] },
      { line: 2, cells: ["9", 'x"y"z'] },
      { line: 3, cells: ["11", "12"] },
    ]);
  });
});
