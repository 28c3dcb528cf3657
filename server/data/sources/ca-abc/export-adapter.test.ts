import { writeFileSync } from "node:fs";
import { unzipSync } from "fflate";
import { afterAll, describe, expect, it } from "vitest";
import { caDailyExportZip, realRecords } from "../../../testing/agency-files.ts";
import { readAll, tempFolder } from "../../../testing/adapter-test-helpers.ts";
import { caAbcExport } from "./export-adapter.ts";

const temp = tempFolder();
afterAll(() => temp.done());

describe("ca-abc-export, the daily data export, a layout we hold no real file of", () => {
  it("reads our real records written in that layout, dated by its banner", async () => {
    const real = await realRecords(
      "ca-abc",
      "ca/ca_abc_daily_status_change_reports_2023-05-09_to_2024-04-01.tar.gz",
      500,
    );
    const zip = caDailyExportZip(real, "Monday 28th of September 2026 03:50:28 AM");
    const path = temp.path("ABC-DailyDataExport.csv");
    writeFileSync(path, unzipSync(zip)["ABC-DailyDataExport.csv"]!);
    const read = await readAll(caAbcExport, [path]);
    expect(read.files[0]).toMatchObject({ asOf: "2026-09-28", asOfFrom: "stated in the file" });
    expect(read.files[0]!.skips.list()).toEqual([]);
    expect(read.records.size).toBe(500);
    for (const record of real) {
      const got = read.records.get(record.license)!.record;
      expect(got).toEqual({
        ...record,
        dates: { ca: { ...record.dates.ca!, effective: null, issued_latest: null } },
        details: {
          class: null,
          description: record.status === "pending" ? "application" : "license",
          type: record.details.type.split(",")[0]!.trim() || "41",
        },
      });
    }
  });
});
