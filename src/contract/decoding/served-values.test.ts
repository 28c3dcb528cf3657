// @vitest-environment node
import { describe, expect, it } from "vitest";
import { codeNames, loadDecodingTable, statusCategory } from "./decode.ts";
import { caAbc } from "../../../server/import/ca-abc/adapter.ts";
import { coLed } from "../../../server/import/co-led/adapter.ts";
import { dcAbra } from "../../../server/import/dc-abra/adapter.ts";
import { maAbcc } from "../../../server/import/ma-abcc/adapter.ts";
import { mdBllc } from "../../../server/import/md-bllc/adapter.ts";
import { njAbc } from "../../../server/import/nj-abc/adapter.ts";
import { nySla } from "../../../server/import/ny-sla/adapter.ts";
import { readAll, sharedData } from "../../../server/import/adapter-test-helpers.ts";
import type { SourceAdapter } from "../../../server/import/source-adapter.ts";

// The real exports, each state's files in the order an import of ../shared/data takes them (for DC
// the two newest lists: the newest is served, and the older ones of dc/history change nothing of it).
const REAL_FILES: [string, SourceAdapter, string[]][] = [
  ["ca", caAbc, ["ca/ca_abc_daily_status_change_reports_2023-05-09_to_2024-04-01.tar.gz"]],
  ["co", coLed, ["co/Recently_Approved_Liquor_Licenses_in_Colorado.csv"]],
  ["dc", dcAbra, ["dc/DistrictABCLicenseeList842016.xls", "dc/DistrictABCLicensees-772015.xlsx"]],
  ["ma", maAbcc, ["ma/ma_license_list.csv"]],
  ["md", mdBllc, ["md/Liquor_Licenses.csv"]],
  ["nj", njAbc, ["nj/nj_bar_store_licenses.csv", "nj/nj_retail_licensees_april2026.xlsx"]],
  ["ny", nySla, ["ny/nyc_bars.csv", "ny/NYS_Liquor_Authority_New_Applications_Received.csv"]],
];

// The title names the state: formatting an adapter object would call its inspect().
describe.each(REAL_FILES)("what the %s importer serves from the real files", async (_state, adapter, paths) => {
  const { records } = await readAll(adapter, paths.map(sharedData));
  const served = [...records.values()].map((r) => r.record);
  const distinct = (values: (string | null)[]) => [...new Set(values)].filter((v) => v !== null).sort();

  it("decodes every status it serves to a category (no status at all, Baltimore's NULL, is left to read check)", async () => {
    const table = await loadDecodingTable(adapter.state);
    const statuses = distinct(served.map((r) => r.status)).filter((s) => s !== "");
    expect(statuses.length).toBeGreaterThan(0);
    const undecoded = statuses.filter((s) => statusCategory(table, s).category === "unknown");
    expect(undecoded).toEqual([]);
  });

  it("writes every license number it serves in the table's format (California's: 3 to 6 digits, unpadded; a DC vessel line's further vessels add -2, -3; Colorado's before October 2018: 7 digits; Baltimore's: year-class-number)", async () => {
    const format = (await loadDecodingTable(adapter.state))?.number?.format;
    const base = (license: string) => (adapter.state === "dc" ? license.replace(/-[2-9]$/, "") : license);
    const shape = (license: string) => base(license).replace(/[0-9]/g, "9").replace(/[A-Z]/g, "A");
    const unformatted =
      adapter.state === "md" ? /^20[0-9]{2}-[A-Z0-9]+(?:-[A-Z0-9]+)*-[1-9][0-9]*$/ : /^[1-9][0-9]{2,5}$/;
    const fits = format
      ? (license: string) => shape(license) === format || (adapter.state === "co" && /^4[67][0-9]{5}$/.test(license))
      : (license: string) => unformatted.test(license);
    expect(served.map((r) => r.license).filter((license) => !fits(license))).toEqual([]);
  });

  it("names every license type and class it serves", async () => {
    const table = await loadDecodingTable(adapter.state);
    const unnamed = (kind: "type" | "class", values: (string | null)[]) =>
      distinct(values).flatMap((v) => codeNames(table, kind, v).filter((c) => "unknown" in c));
    const types = served.map((r) => r.details.type);
    const classes = served.map((r) => r.details.class);
    expect(unnamed("type", types)).toEqual([]);
    // California has no class apart from the type; the others name theirs.
    expect(unnamed("class", adapter.state === "ca" ? [] : classes)).toEqual([]);
  });
});
