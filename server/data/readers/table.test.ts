import { writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { tempFolder } from "../../testing/adapter-test-helpers.ts";
import { UnknownLayoutError } from "../sources/source-adapter.ts";
import { sourceFile } from "./source-file.ts";
import { readTableFile, tableLayout, withSharedHead, type TableOutcome } from "./table.ts";

const temp = tempFolder("table-");
afterAll(() => temp.done());

const numbers = tableLayout({
  name: "numbers",
  columns: { license: "License", name: "Name" },
  toValue: (row) => `${row.text("license")} ${row.text("name")}`,
});
const other = tableLayout({ name: "other", columns: { permit: "Permit" }, toValue: (row) => row.text("permit") });

describe("a file whose head is shared by every layout tried on it (npm run import -- --all)", () => {
  // Two title lines above the header, and more rows than a header is looked for in.
  const path = temp.path("list.csv");
  const rows = Array.from({ length: 25 }, (_, i) => `${i + 1},Tavern ${i + 1}`);
  writeFileSync(path, ["Licensees", "as of 2026-01-01", "License,Name", ...rows].join("\n"));

  const values = async (outcomes: AsyncIterable<TableOutcome<string>>) => {
    const out: string[] = [];
    for await (const o of outcomes) if ("value" in o) out.push(o.value);
    return out;
  };

  it("reads every row, in order, past the head it read once, for another layout refused and for one that fits", async () => {
    const opened: string[] = [];
    const file = withSharedHead({ ...sourceFile(path), open: () => (opened.push(path), sourceFile(path).open()) });
    await expect(values(readTableFile(file, [other]))).rejects.toThrow(UnknownLayoutError);
    await expect(values(readTableFile(file, [other]))).rejects.toThrow(UnknownLayoutError);
    // Both refusals read the file once between them.
    expect(opened).toHaveLength(1);
    expect(await values(readTableFile(file, [numbers]))).toEqual(rows.map((r) => r.replace(",", " ")));
  });
});
