// @vitest-environment node
import { describe, expect, it } from "vitest";
import { codeNames, loadDecodingTable, statusCategory, statusInTable } from "./decode.ts";
import { caAbc } from "../../../server/data/sources/ca-abc/adapter.ts";
import { coLed } from "../../../server/data/sources/co-led/adapter.ts";
import { dcAbra } from "../../../server/data/sources/dc-abra/adapter.ts";
import { kyAbc } from "../../../server/data/sources/ky-abc/adapter.ts";
import { gaDor, listedBoth } from "../../../server/data/sources/ga-dor/adapter.ts";
import { maAbcc } from "../../../server/data/sources/ma-abcc/adapter.ts";
import { mdBllc } from "../../../server/data/sources/md-bllc/adapter.ts";
import { miMlcc } from "../../../server/data/sources/mi-mlcc/adapter.ts";
import { njAbc } from "../../../server/data/sources/nj-abc/adapter.ts";
import { nySla } from "../../../server/data/sources/ny-sla/adapter.ts";
import { paPlcb } from "../../../server/data/sources/pa-plcb/adapter.ts";
import { txCpa } from "../../../server/data/sources/tx-cpa/adapter.ts";
import { waWslcb } from "../../../server/data/sources/wa-wslcb/adapter.ts";
import { readAll, sharedData } from "../../../server/testing/adapter-test-helpers.ts";
import type { SourceAdapter } from "../../../server/data/sources/source-adapter.ts";

// The real exports, each state's files in the order an import of ../shared/data takes them (for DC
// the two newest lists: the newest is served, and the older ones of dc/history change nothing of it).
const REAL_FILES: [string, SourceAdapter, string[]][] = [
  ["ca", caAbc, ["ca/ca_abc_daily_status_change_reports_2023-05-09_to_2024-04-01.tar.gz"]],
  ["co", coLed, ["co/Recently_Approved_Liquor_Licenses_in_Colorado.csv"]],
  ["dc", dcAbra, ["dc/DistrictABCLicenseeList842016.xls", "dc/DistrictABCLicensees-772015.xlsx"]],
  ["ky", kyAbc, ["ky/ActiveLicenses.csv"]],
  ["ga", gaDor, ["ga/liquor_licenses.csv"]],
  ["ma", maAbcc, ["ma/ma_license_list.csv"]],
  ["md", mdBllc, ["md/Liquor_Licenses.csv"]],
  ["mi", miMlcc, ["mi/Liquor_Licenses.csv"]],
  ["nj", njAbc, ["nj/nj_bar_store_licenses.csv", "nj/nj_retail_licensees_april2026.xlsx"]],
  ["ny", nySla, ["ny/itoschum_liquor.csv", "ny/nyc_bars.csv", "ny/NYS_Liquor_Authority_New_Applications_Received.csv"]],
  ["pa", paPlcb, ["pa/ALL_PLCB_geocoded.csv", "pa/PHL_PLCB_geocoded.csv"]],
  ["tx", txCpa, ["tx/dev_tabc_restaurants.db", "tx/Mixed_Beverage_Gross_Receipts_20260125.csv"]],
  ["wa", waWslcb, ["wa/wslcb_data.db"]],
];

// States whose numbers have no fixed form, so no format in their table, and how they write them instead.
const UNFIXED_FORMS: Record<string, RegExp> = {
  // 3 to 6 digits, unpadded.
  ca: /^[1-9][0-9]{2,5}$/,
  // 1 to 5 digits, unpadded.
  ga: /^[1-9][0-9]{0,4}$/,
  // County code, type segment and a serial of 1 to 6 digits (034-HI-29, 034-NQ4-191200).
  ky: /^\d{3}-[A-Z]+\d?-\d{1,6}$/,
  // A type prefix and an unpadded serial, no hyphen: R142, R12441, AB58312.
  pa: /^[A-Z]{1,3}[1-9][0-9]*$/,
  // Year, class as written and number: 2015-AE-5, 2014-LBD7-325.
  md: /^20[0-9]{2}-[A-Z0-9]+(?:-[A-Z0-9]+)*-[1-9][0-9]*$/,
  // A permit's type letters and 5 to 9 digits: MB99255, MB911490, MB200070013.
  tx: /^[A-Z]{1,2}[0-9]{5,9}$/,
};

// The title names the state: formatting an adapter object would call its inspect().
describe.each(REAL_FILES)("what the %s importer serves from the real files", async (_state, adapter, paths) => {
  const { records } = await readAll(adapter, paths.map(sharedData));
  const served = [...records.values()].map((r) => r.record);
  const distinct = (values: (string | null)[]) => [...new Set(values)].filter((v) => v !== null).sort();

  it("decodes every status it serves to a category, or to the table's words for a record that is no license status; a Georgia license its list gives two statuses, and no status at all (Baltimore's NULL), are left to read check", async () => {
    const table = await loadDecodingTable(adapter.state);
    const statuses = distinct(served.map((r) => r.status)).filter((s) => s !== "");
    expect(statuses.length).toBeGreaterThan(0);
    const undecoded = statuses.filter(
      (s) => statusCategory(table, s).category === "unknown" && !statusInTable(table, s),
    );
    expect(undecoded).toEqual(adapter.state === "ga" ? [listedBoth(["active", "inactive"])] : []);
  });

  it("writes every license number it serves in the table's format, or as a state without one writes them (a DC vessel line's further vessels add -2, -3; Colorado's before October 2018: 7 digits)", async () => {
    const format = (await loadDecodingTable(adapter.state))?.number?.format;
    const base = (license: string) => (adapter.state === "dc" ? license.replace(/-[2-9]$/, "") : license);
    const shape = (license: string) => base(license).replace(/[0-9]/g, "9").replace(/[A-Z]/g, "A");
    const fits = format
      ? (license: string) => shape(license) === format || (adapter.state === "co" && /^4[67][0-9]{5}$/.test(license))
      : (license: string) => UNFIXED_FORMS[adapter.state]!.test(license);
    expect(served.map((r) => r.license).filter((license) => !fits(license))).toEqual([]);
  });

  it("names every license type and class it serves", async () => {
    const table = await loadDecodingTable(adapter.state);
    const unnamed = (kind: "type" | "class", values: (string | null)[]) =>
      distinct(values).flatMap((v) => codeNames(table, kind, v).filter((c) => "unknown" in c));
    const types = served.map((r) => r.details.type);
    const classes = served.map((r) => r.details.class);
    expect(unnamed("type", types)).toEqual([]);
    // California has no class apart from the type; the others name theirs (Kentucky serves none).
    expect(unnamed("class", adapter.state === "ca" ? [] : classes)).toEqual([]);
  });
});
