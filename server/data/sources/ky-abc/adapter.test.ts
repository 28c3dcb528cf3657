import { readFileSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { KY_REPAIRS, kyAbc, reportRunDate } from "./adapter.ts";
import { SOURCE_ADAPTERS } from "../adapters.ts";
import { UnknownLayoutError } from "../source-adapter.ts";
import { sourceFile } from "../../readers/source-file.ts";
import { datesOf, readAll, sharedData, tempFolder } from "../../../testing/adapter-test-helpers.ts";

const REPORT = sharedData("ky/ActiveLicenses.csv");
const temp = tempFolder();
afterAll(() => temp.done());

describe("ky-abc, the BELLE Active Licenses report for Fayette County", async () => {
  const read = await readAll(kyAbc, [REPORT]);
  const { records, skips, outcomes } = read;
  const report = read.files[0]!;
  const repairs = () => report.repairs.list().map((r) => [r.reason, r.count, r.examples.map((e) => e.line)]);
  const served = [...records.values()].map((r) => r.record);

  it("finds the header under the three report lines and reads every row as a license", () => {
    expect(outcomes).toBe(1852);
    expect(skips).toEqual([]);
    expect(records.size).toBe(1852);
    // The header is line 4: the first license is on line 5.
    expect(report.observations[0]).toMatchObject({ license: "034-CL-422", line: 5 });
  });

  it("is as of the run date on the report's second line, and names Fayette County as what it covers", async () => {
    expect(await kyAbc.inspect(sourceFile(REPORT))).toMatchObject({
      layout: "KY ABC Active Licenses report (BELLE)",
      title: "KY ABC Active Licenses",
      family: "ky-abc: active licenses",
      asOf: "2023-10-11",
      asOfFrom: "stated in the file",
    });
    expect([report.asOf, report.asOfFrom]).toEqual(["2023-10-11", "stated in the file"]);
    expect(report.coverage).toBe(
      "Fayette County only: the licenses ABC's Active Licenses report lists as active there",
    );
  });

  it("maps a package store's license field by field: Kroger #347, 034-LP-2101", () => {
    // 20493,Fayette,Lexington,Kroger #347 Liquor Store,KROGER LIMITED PARTNERSHIP I ,"4101 Tates Creek, Suite 116",
    // "Lexington, KY 40517",034-LP-2101,Quota Retail Package License,Active,04/17/2014,04/17/2014,08/31/2024
    expect(records.get("034-LP-2101")).toEqual({
      path: REPORT,
      asOf: "2023-10-11",
      record: {
        license: "034-LP-2101",
        business: "Kroger #347 Liquor Store",
        owner: "KROGER LIMITED PARTNERSHIP I",
        phone: null,
        state: "ky",
        status: "active",
        address: {
          line_1: "4101 Tates Creek, Suite 116",
          line_2: null,
          city: "Lexington",
          county: "Fayette",
          state: "KY",
          zip: "40517",
        },
        dates: {
          ky: { effective: "2014-04-17", expires: "2024-08-31", issued_original: "2014-04-17", issued_latest: null },
        },
        details: { class: null, description: "Quota Retail Package License", type: "LP" },
      },
    });
  });

  it("maps a caterer's license: Keeneland Hospitality, 034-CL-379", () => {
    // 4058,Fayette,Lexington,Keeneland Hospitality,"KEENELAND HOSPITALITY, LLC ",4201 Versailles Rd,"Lexington, KY 40510",
    // 034-CL-379,Caterer's License,Active,03/16/2015,03/16/2015,11/30/2023
    expect(records.get("034-CL-379")!.record).toEqual({
      license: "034-CL-379",
      business: "Keeneland Hospitality",
      owner: "KEENELAND HOSPITALITY, LLC",
      phone: null,
      state: "ky",
      status: "active",
      address: {
        line_1: "4201 Versailles Rd",
        line_2: null,
        city: "Lexington",
        county: "Fayette",
        state: "KY",
        zip: "40510",
      },
      dates: {
        ky: { effective: "2015-03-16", expires: "2023-11-30", issued_original: "2015-03-16", issued_latest: null },
      },
      details: { class: null, description: "Caterer's License", type: "CL" },
    });
  });

  it("maps a microbrewery's license, its type segment three letters and its serial six digits: 034-MIC-188062", () => {
    // 16520,Fayette,Lexington,Country Boy Brewing,"COUNTRY BOY BREWING, L.L.C. ",436 Chair Ave,"Lexington, KY 40508",
    // 034-MIC-188062,Microbrewery License,Active,01/11/2022,01/11/2022,11/30/2023
    expect(records.get("034-MIC-188062")!.record).toEqual({
      license: "034-MIC-188062",
      business: "Country Boy Brewing",
      owner: "COUNTRY BOY BREWING, L.L.C.",
      phone: null,
      state: "ky",
      status: "active",
      address: {
        line_1: "436 Chair Ave",
        line_2: null,
        city: "Lexington",
        county: "Fayette",
        state: "KY",
        zip: "40508",
      },
      dates: {
        ky: { effective: "2022-01-11", expires: "2023-11-30", issued_original: "2022-01-11", issued_latest: null },
      },
      details: { class: null, description: "Microbrewery License", type: "MIC" },
    });
  });

  it("keeps a temporary license without a premises id, its event taking effect after the run date", () => {
    // ,Fayette,Lexington,4th Annual Relics and Rarities from the Bluegrass Region Auction,"BLUE GRASS FARMS CHARITIES, INC.  ",
    // 2339 Sandersville Rd,"Lexington, KY 40511",034-TA-198999,Special Temporary Alcoholic Beverage Auction License,Active,09/08/2023,10/26/2023,10/29/2023
    const auction = records.get("034-TA-198999")!.record;
    expect([auction.business, auction.owner]).toEqual([
      "4th Annual Relics and Rarities from the Bluegrass Region Auction",
      "BLUE GRASS FARMS CHARITIES, INC.",
    ]);
    expect(datesOf(auction)).toEqual({
      effective: "2023-10-26",
      expires: "2023-10-29",
      issued_original: "2023-09-08",
      issued_latest: null,
    });
    // Fifteen temporary licenses have no SiteID; 13 licenses take effect after 2023-10-11.
    expect(served.filter((r) => datesOf(r).effective! > "2023-10-11")).toHaveLength(13);
  });

  it("keeps an effective date a day before the issue date as the report gives it: 034-DTB-160057", () => {
    // 034-DTB-160057,Distiller's License - Class B,Active,02/27/2020,02/26/2020,...
    expect(datesOf(records.get("034-DTB-160057")!.record)).toMatchObject({
      effective: "2020-02-26",
      issued_original: "2020-02-27",
    });
  });

  it("trims the spaces the report pads names, cities and one license number with, and counts each by column", () => {
    // 3944,...,IDLE HOUR COUNTRY CLUB ,1815 Richmond Rd,"Lexington, KY 40502",034-SB-1860 ,Supplemental Bar License,...
    expect(records.get("034-SB-1860")!.record).toMatchObject({
      license: "034-SB-1860",
      owner: "IDLE HOUR COUNTRY CLUB",
    });
    // 37526,Fayette,Lexington ,peppers mexican grill,...,"Lexington , KY 40515",034-NQ2-199426,...
    expect(records.get("034-NQ2-199426")!.record.address).toMatchObject({ city: "Lexington", zip: "40515" });
    expect(served.filter((r) => r.owner !== r.owner.trim() || r.business !== r.business.trim())).toEqual([]);
    expect(repairs()).toEqual([
      [KY_REPAIRS.padded("Licensee"), 1821, [5, 6, 7, 8, 9]],
      [KY_REPAIRS.padded("DBA"), 18, [29, 131, 132, 227, 228]],
      [KY_REPAIRS.padded("City"), 2, [1225, 1226]],
      [KY_REPAIRS.padded("LicenseNumber"), 1, [750]],
      [KY_REPAIRS.noZip, 1, [443]],
      [KY_REPAIRS.padded("PremisesCityState"), 1, [443]],
    ]);
  });

  it("keeps a license whose premises line has no ZIP, with an empty ZIP: Dollar General, 034-NQ-162084", () => {
    // 29507,Fayette,Lexington,Dollar General Store No. 20954,DOLLAR GENERAL CORPORATION ,4801 Last Chance Trl,"Lexington, KY ",034-NQ-162084,...
    expect(records.get("034-NQ-162084")!.record.address).toEqual({
      line_1: "4801 Last Chance Trl",
      line_2: null,
      city: "Lexington",
      county: "Fayette",
      state: "KY",
      zip: "",
    });
  });

  it("keeps names and cities as written: LEXINGTON in capitals, a double space inside a name", () => {
    // 23407,...,Mirror Twin Brewing Co.,"Mirror Twin Brewing  , LLC ",725 National Ave,...,034-MIC-93,Microbrewery License,...
    expect(records.get("034-MIC-93")!.record.owner).toBe("Mirror Twin Brewing  , LLC");
    expect(new Set(served.map((r) => r.address.city))).toEqual(new Set(["Lexington", "LEXINGTON"]));
  });

  it("has none of the other faults: repeated rows, duplicate numbers, line breaks, numbers or ZIPs a spreadsheet rewrote", () => {
    const text = readFileSync(REPORT, "utf8");
    // No line break but those between records: 3 report lines (the third blank), the header, 1,852
    // licenses and a blank line at the end; blank lines are passed over, not counted.
    expect(text.replaceAll("\r\n", "")).not.toMatch(/[\r\n]/);
    const lines = text.split("\r\n");
    expect(lines).toHaveLength(4 + 1852 + 2);
    expect([lines[2], ...lines.slice(-2)]).toEqual(["", "", ""]);
    const rows = lines.slice(4, -2);
    expect(new Set(rows).size).toBe(rows.length);
    expect(served.filter((r) => !/^\d{3}-[A-Z]+\d?-\d{1,6}$/.test(r.license))).toEqual([]);
    // Fayette's county code is 034; two transporter's licenses at Lexington addresses carry 998:
    // 28679,...,S.T. Services Inc,...,1029 Goodwin Dr,"Lexington, KY 40505",998-TPL-3543,Transporter's License,...
    expect(served.filter((r) => !r.license.startsWith("034-")).map((r) => r.license)).toEqual([
      "998-TPL-3543",
      "998-TPL-3665",
    ]);
    expect(served.filter((r) => !/^405\d\d$/.test(r.address.zip)).map((r) => r.license)).toEqual(["034-NQ-162084"]);
    expect(new Set(served.map((r) => r.status))).toEqual(new Set(["active"]));
  });

  it("is claimed by no other source, and refuses the other agencies' files", async () => {
    for (const adapter of SOURCE_ADAPTERS.filter((a) => a !== kyAbc)) {
      await expect(adapter.inspect(sourceFile(REPORT)), adapter.name).rejects.toThrow(UnknownLayoutError);
    }
    for (const other of ["ma/ma_license_list.csv", "mi/Liquor_Licenses.csv", "md/Liquor_Licenses.csv"]) {
      await expect(kyAbc.inspect(sourceFile(sharedData(other))), other).rejects.toThrow(UnknownLayoutError);
    }
  });
});

describe("ky-abc, hand-made files", () => {
  const [title, dates, , header] = readFileSync(REPORT, "utf8")
    .replace(/^\uFEFF/, "")
    .split("\r\n");
  const row = (license: string, status: string, issued: string, place = '"Lexington, KY 40507"') =>
    `1,Fayette,Lexington,Some Bar,SOME BAR LLC ,1 Main St,${place},${license},Quota Retail Drink License,${status},${issued},01/02/2020,11/30/2023`;

  it("maps an empty status and an unreadable date to empty, with repairs, and never drops a numbered row", async () => {
    const file = temp.path("ky.csv");
    writeFileSync(
      file,
      [
        title,
        dates,
        "",
        header,
        row("034-LD-1", "Active", "01/02/2020"),
        row("034-LD-2", "", "01/02/2020"),
        row("034-LD-3", "Active", "13/45/2020"),
        row("034-LD-4", "Inactive", "01/02/2020", "Lexington"),
        row("", "Active", "01/02/2020"),
      ].join("\r\n"),
    );
    const { records, skips, files } = await readAll(kyAbc, [file]);
    expect([...records.values()].map((r) => [r.record.license, r.record.status, r.record.address.zip])).toEqual([
      ["034-LD-1", "active", "40507"],
      ["034-LD-2", "", "40507"],
      ["034-LD-3", "active", "40507"],
      ["034-LD-4", "inactive", ""],
    ]);
    expect(datesOf(records.get("034-LD-3")!.record).issued_original).toBeNull();
    expect(skips.map((s) => [s.at.line, s.skip])).toEqual([[9, "no license number"]]);
    expect(files[0]!.repairs.list().map((r) => [r.reason, r.examples.map((e) => e.line)])).toEqual([
      [KY_REPAIRS.padded("Licensee"), [5, 6, 7, 8]],
      [KY_REPAIRS.noStatus, [6]],
      [KY_REPAIRS.noZip, [8]],
      ["unreadable issue date: left empty", [7]],
    ]);
  });

  it("without its report lines, is as of its newest issue date", async () => {
    const file = temp.path("ky-headless.csv");
    writeFileSync(
      file,
      [header, row("034-LD-1", "Active", "01/02/2020"), row("034-LD-2", "Active", "03/04/2021")].join("\n"),
    );
    const { files } = await readAll(kyAbc, [file]);
    expect([files[0]!.asOf, files[0]!.asOfFrom]).toEqual(["2021-03-04", "the newest date in the file"]);
  });

  it("reads the run date as the first cell of the report's dated line only", () => {
    const head = (preamble: unknown[][]) => reportRunDate({ preamble, sheet: null, name: "x.csv" });
    expect(
      head([
        ["Textbox9", "Textbox12", "Textbox14"],
        ["10/11/2023", "01/01/2023", "12/31/2023"],
      ]),
    ).toEqual({
      asOf: "2023-10-11",
      asOfFrom: "stated in the file",
    });
    expect(head([["Textbox9"], ["02/30/2023", "01/01/2023"]])).toBeNull();
    expect(head([])).toBeNull();
  });
});
