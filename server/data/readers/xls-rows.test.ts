import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { sharedData } from "../../testing/adapter-test-helpers.ts";
import { sourceFile } from "./source-file.ts";
import { openTableFile, tableLayout, type TableOutcome } from "./table.ts";
import { xlsRows } from "./xls-rows.ts";

const DC = sharedData("dc");
const hasData = existsSync(DC);

/** A layout of just the license number and trade name, under the header the file gives them. */
function licenseAndTrade(license: string, trade: string) {
  return tableLayout({
    name: `${license} / ${trade}`,
    columns: { license, trade },
    toValue: (row) => ({ license: row.text("license"), trade: row.text("trade") }),
  });
}

async function table(path: string, license: string, trade: string) {
  const opened = await openTableFile(sourceFile(path), [licenseAndTrade(license, trade)]);
  const rows: TableOutcome<{ license: string; trade: string }>[] = [];
  for await (const row of opened.rows) rows.push(row);
  return { ...opened, rows };
}

describe.skipIf(!hasData)(`reading the DC rosters${hasData ? "" : " (skipped: ../shared/data/dc is absent)"}`, () => {
  it("reads the November 2005 .xls: license 9 is Press Liquors, its number a bare integer", async () => {
    const { format, preamble, rows } = await table(`${DC}/history/ABCLicensees112005.xls`, "License#", "Trade Name");
    expect(format).toBe("xls");
    expect(preamble).toEqual([]);
    expect(rows).toHaveLength(1568);
    expect(rows[0]).toEqual({
      at: { file: "ABCLicensees112005.xls", line: 2 },
      value: { license: "9", trade: "Press Liquors" },
      repairs: undefined,
    });
  });

  it("finds the August 2016 .xls header under its title row, with District Liquors as ABRA-000023", async () => {
    const { preamble, rows } = await table(`${DC}/DistrictABCLicenseeList842016.xls`, "License #", "Trade Name");
    expect(preamble).toHaveLength(1);
    expect(String(preamble[0]![0])).toContain("ABC Licensees as of August 4, 2016");
    expect(rows).toHaveLength(1926);
    const district = rows.find((row) => "value" in row && row.value.license === "ABRA-000023");
    expect(district).toMatchObject({ value: { trade: "District Liquors" } });
  });

  it("gives the cells as a spreadsheet holds them: numbers, empty cells as holes, dates at UTC midnight", async () => {
    const path = `${DC}/history/ABCLicensees112010.xls`;
    const rows = [];
    for await (const row of xlsRows(() => sourceFile(path).open())) {
      rows.push(row);
      if (rows.length === 2) break;
    }
    expect(rows[1]).toMatchObject({ line: 2 });
    const cells = (rows[1] as { cells: unknown[] }).cells;
    expect(cells[0]).toBe("ABRA-074045");
    expect(cells[1]).toEqual(new Date("2006-04-01T00:00:00Z"));
    expect(cells[5]).toBe(1119);
    expect(8 in cells).toBe(false);
  });

  it("reads the August 2013 .xlsx that openpyxl refuses, header under its title row", async () => {
    const { format, preamble, rows } = await table(
      `${DC}/history/DistrictABCLicenseesAug2013.xlsx`,
      "License",
      "Trade Name",
    );
    expect(format).toBe("zip");
    expect(String(preamble[0]![0])).toContain("August 2013");
    expect(rows).toHaveLength(1840);
    // The file was made from a PDF: the cells keep its line breaks and its Unicode hyphen (U+2010),
    // which the adapter has to mend.
    expect(rows[0]).toMatchObject({
      at: { line: 3 },
      value: { license: "ABRA\u2010\n000010", trade: "Pauls\nDiscount" },
    });
  });
});
