import Database from "better-sqlite3";
import { writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { tempFolder } from "../../testing/adapter-test-helpers.ts";
import { UnknownLayoutError } from "../sources/source-adapter.ts";
import { sniffFormat } from "./sniff-format.ts";
import { sourceFile } from "./source-file.ts";
import { sqliteRows, sqliteTables } from "./sqlite-rows.ts";
import { openTableFile, readTableFile, tableLayout, type TableOutcome } from "./table.ts";

const temp = tempFolder();
afterAll(() => temp.done());

/** A database of two tables: `permits` (rowids 3, 7 and 8; row 7 has only its id) and `notes`, which has no rowids. */
function database(name: string): string {
  const path = temp.path(name);
  const db = new Database(path);
  db.exec(`
    CREATE TABLE permits (id INTEGER PRIMARY KEY, permit TEXT, name TEXT, receipts REAL);
    INSERT INTO permits VALUES (3, 'MB911490', ' OF RIGOR, LLC ', 560011.0), (7, NULL, NULL, NULL), (8, 'N 711376', 'CHAPARRITO''S', NULL);
    CREATE TABLE notes (key TEXT PRIMARY KEY, note TEXT) WITHOUT ROWID;
    INSERT INTO notes VALUES ('b', 'second'), ('a', 'first');
  `);
  db.close();
  return path;
}

const permits = tableLayout({
  name: "permits",
  table: "permits",
  columns: { permit: "permit", name: "name" },
  toValue: (row) => ({ permit: row.text("permit"), name: row.text("name") }),
});

async function all<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const row of rows) out.push(row);
  return out;
}

describe("reading a SQLite database", () => {
  const path = database("permits.db");

  it("knows a database by its first bytes, whatever its name", async () => {
    expect(await sniffFormat(path)).toBe("sqlite");
    const csv = temp.path("permits.db.csv");
    writeFileSync(csv, "permit,name\nMB1,X\n");
    expect(await sniffFormat(csv)).toBe("text");
  });

  it("gives a table's column names as its header, then its rows, each at its rowid", async () => {
    expect(sqliteTables(path)).toEqual(["notes", "permits"]);
    expect(await all(sqliteRows(path, "permits"))).toEqual([
      { line: 0, cells: ["id", "permit", "name", "receipts"] },
      { line: 3, cells: [3, "MB911490", " OF RIGOR, LLC ", 560011] },
      { line: 7, cells: [7, null, null, null] },
      { line: 8, cells: [8, "N 711376", "CHAPARRITO'S", null] },
    ]);
  });

  it("numbers the rows of a table without rowids by their place", async () => {
    expect(await all(sqliteRows(path, "notes"))).toEqual([
      { line: 0, cells: ["key", "note"] },
      { line: 1, cells: ["a", "first"] },
      { line: 2, cells: ["b", "second"] },
    ]);
  });

  it("reads the table a layout names as any table is read: trimmed text; a row with only its id is not blank", async () => {
    const rows: TableOutcome<{ permit: string; name: string }>[] = await all(
      readTableFile(sourceFile(path), [permits]),
    );
    expect(rows).toEqual([
      { at: { file: "permits.db", line: 3 }, value: { permit: "MB911490", name: "OF RIGOR, LLC" } },
      { at: { file: "permits.db", line: 7 }, value: { permit: "", name: "" } },
      { at: { file: "permits.db", line: 8 }, value: { permit: "N 711376", name: "CHAPARRITO'S" } },
    ]);
  });

  it("lets go of the database when reading stops early: a writer is not kept out", async () => {
    const opened = await openTableFile(sourceFile(path), [permits]);
    expect(opened.format).toBe("sqlite");
    await opened.rows.next();
    await opened.close();
    const writer = new Database(path);
    try {
      expect(writer.prepare("UPDATE permits SET receipts = 1 WHERE id = 3").run().changes).toBe(1);
    } finally {
      writer.close();
    }
  });

  it("is of no layout that names no table, or another table, or other columns", async () => {
    const csvOnly = tableLayout({
      name: "a CSV roster",
      columns: { permit: "permit" },
      toValue: (row) => row.text("permit"),
    });
    await expect(openTableFile(sourceFile(path), [csvOnly])).rejects.toThrow(UnknownLayoutError);
    const otherTable = { ...permits, name: "licenses", table: "licenses" };
    await expect(openTableFile(sourceFile(path), [otherTable])).rejects.toThrow(
      /permits\.db: unknown layout: a SQLite database with no table of a known layout[\s\S]*table licenses with columns permit, name\nFound tables: notes, permits/,
    );
    const otherColumns = { ...permits, columns: { permit: "permit", name: "taxpayer_name" } };
    await expect(openTableFile(sourceFile(path), [otherColumns])).rejects.toThrow(UnknownLayoutError);
  });

  it("does not look for a database table in a CSV", async () => {
    const csv = temp.path("permits.csv");
    writeFileSync(csv, "permit,name\nMB1,X\n");
    await expect(openTableFile(sourceFile(csv), [permits])).rejects.toThrow(
      /permits\.csv: is not a SQLite database; expected one with table permits/,
    );
  });
});
