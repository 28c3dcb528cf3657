import { readFileSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { PA_REPAIRS, paPlcb } from "./adapter.ts";
import { LICENSE_ROW_SKIPS } from "./license-rows.ts";
import { ADDRESS_REPAIRS } from "./premises-address.ts";
import { datesOf, readAll, sharedData, tempFolder } from "../../../testing/adapter-test-helpers.ts";
import { sourceFile } from "../../readers/source-file.ts";
import { UnknownLayoutError } from "../source-adapter.ts";

const PHILADELPHIA = sharedData("pa/PHL_PLCB_geocoded.csv");
const ALLEGHENY = sharedData("pa/ALL_PLCB_geocoded.csv");
const temp = tempFolder();
afterAll(() => temp.done());

const linesOf = (path: string) => readFileSync(path, "utf8").split("\n");

describe("pa-plcb, the PLCB's lists of Philadelphia and Allegheny counties", async () => {
  const read = await readAll(paPlcb, [PHILADELPHIA, ALLEGHENY]);
  const { records } = read;
  const [phl, all] = read.files as [(typeof read.files)[0], (typeof read.files)[0]];
  const tally = (list: ReturnType<typeof phl.skips.list>) => list.map((r) => [r.reason, r.count]);
  const record = (license: string) => records.get(license)!.record;

  it("keeps both counties: two counties of one export are two lists side by side, not an older and a newer one", async () => {
    expect([phl.rowsRead, phl.observations.length, all.rowsRead, all.observations.length]).toEqual([
      2397, 2282, 1473, 1442,
    ]);
    expect(records.size).toBe(2282 + 1442);
    expect(records.get("R142")!.path).toBe(PHILADELPHIA);
    expect(records.get("R12441")!.path).toBe(ALLEGHENY);
    const families = await Promise.all(
      [PHILADELPHIA, ALLEGHENY].map(async (p) => (await paPlcb.inspect(sourceFile(p))).family),
    );
    expect(families).toEqual(["pa-plcb: licenses of Philadelphia County", "pa-plcb: licenses of Allegheny County"]);
    // Read the other way round, the same licenses are served.
    expect((await readAll(paPlcb, [ALLEGHENY, PHILADELPHIA])).records.size).toBe(2282 + 1442);
  });

  it("dates each file by its newest Last Issue Date and says what it covers", () => {
    // SOURCE.md gives May 9, 2025 as the newest; both files have issues of June 9, 2025 (R21498, C1552 ...).
    expect([phl.asOf, phl.asOfFrom, all.asOf, all.asOfFrom]).toEqual([
      "2025-06-09",
      "the newest date in the file",
      "2025-06-09",
      "the newest date in the file",
    ]);
    expect(phl.coverage).toBe("Philadelphia County only; licenses the PLCB lists as expired are not in it");
    expect(all.coverage).toBe(
      "Allegheny County only, premises whose address names Pittsburgh; licenses the PLCB lists as expired are not in it",
    );
  });

  it("reads a Philadelphia restaurant licence field by field", () => {
    // "371","9238","R142","Restaurant (Liquor)","Active","MCGILLIN'S OLD ALE HOUSE EST. 1860 INC.","MCGILLIN'S OLD ALE HOUSE EST. 1860 INC.",
    // "1310-14 DRURY ST, PHILADELPHIA PA 19107","1310-14 DRURY ST, PHILADELPHIA PA 19107",NA,"CHRISTOPHER MULLINS","Philadelphia County",
    // "Philadelphia City","Sep 30,2024","Oct 31,2025",-75.162637,39.95021
    expect(records.get("R142")).toEqual({
      path: PHILADELPHIA,
      asOf: "2025-06-09",
      record: {
        license: "R142",
        business: "MCGILLIN'S OLD ALE HOUSE EST. 1860 INC.",
        owner: "MCGILLIN'S OLD ALE HOUSE EST. 1860 INC.",
        phone: null,
        state: "pa",
        status: "active",
        address: {
          line_1: "1310-14 DRURY ST",
          line_2: null,
          city: "PHILADELPHIA",
          county: "Philadelphia",
          state: "PA",
          zip: "19107",
        },
        dates: { pa: { effective: null, expires: "2025-10-31", issued_original: null, issued_latest: "2024-09-30" } },
        details: { class: null, description: "Restaurant (Liquor)", type: "R" },
      },
    });
  });

  it("takes Premises as the business and Licensee as the owner", () => {
    // "65","71067","R12441","Restaurant (Liquor)","Active","PLN FOOD SERVICE INC","PRIMANTI BROS","3803-05 FORBES AVE, PITTSBURGH PA 15213-3505",
    // "3803-05 FORBES AVE, PITTSBURGH PA 15213-3505",NA,"NICHOLAS K ROEDLER","Allegheny County","Pittsburgh","Mar 24,2025","May 31,2026",...
    expect(records.get("R12441")).toEqual({
      path: ALLEGHENY,
      asOf: "2025-06-09",
      record: {
        license: "R12441",
        business: "PRIMANTI BROS",
        owner: "PLN FOOD SERVICE INC",
        phone: null,
        state: "pa",
        status: "active",
        address: {
          line_1: "3803-05 FORBES AVE",
          line_2: null,
          city: "PITTSBURGH",
          county: "Allegheny",
          state: "PA",
          zip: "15213-3505",
        },
        dates: { pa: { effective: null, expires: "2026-05-31", issued_original: null, issued_latest: "2025-03-24" } },
        details: { class: null, description: "Restaurant (Liquor)", type: "R" },
      },
    });
  });

  it("keeps a floor in the street and the ZIP+4 of a manufacturer's license that runs to 2028", () => {
    // "1","126888","AB58312","Alcohol Beverage","Active","SPRUCE STREET BEVERAGES LLC","SPRUCE STREET BEVERAGES LLC",
    // "3450 SALMON ST 1ST FL, PHILADELPHIA PA 19134-6025",...,NA,NA,"Philadelphia County","Philadelphia City","Dec 30,2024","Dec 31,2028",...
    expect(records.get("AB58312")).toEqual({
      path: PHILADELPHIA,
      asOf: "2025-06-09",
      record: {
        license: "AB58312",
        business: "SPRUCE STREET BEVERAGES LLC",
        owner: "SPRUCE STREET BEVERAGES LLC",
        phone: null,
        state: "pa",
        status: "active",
        address: {
          line_1: "3450 SALMON ST 1ST FL",
          line_2: null,
          city: "PHILADELPHIA",
          county: "Philadelphia",
          state: "PA",
          zip: "19134-6025",
        },
        dates: { pa: { effective: null, expires: "2028-12-31", issued_original: null, issued_latest: "2024-12-30" } },
        details: { class: null, description: "Alcohol Beverage", type: "AB" },
      },
    });
  });

  it("skips the rows without a number: applications not yet numbered", () => {
    // "150","127534",NA,"Special Occasion Permit","Pending",...
    const unnumbered = (file: typeof phl, path: string) => {
      const lines = linesOf(path);
      const places = file.skips.list().find((s) => s.reason === "no license number")!;
      const pending = [...Array(lines.length).keys()].filter((i) =>
        /^"\d+","\d+",NA,"[^"]*","Pending"/.test(lines[i]!),
      );
      return [places.count, places.examples[0]!.line, pending.length];
    };
    // Every NA number is a Pending row, and each is skipped.
    expect(unnumbered(phl, PHILADELPHIA)).toEqual([20, 151, 20]);
    expect(unnumbered(all, ALLEGHENY)).toEqual([13, 90, 13]);
    expect(linesOf(PHILADELPHIA).filter((line) => /^"\d+","\d+",NA,/.test(line))).toHaveLength(20);
  });

  it("keeps one row of a license number on several rows, and counts each other row with its reason", () => {
    expect(tally(phl.skips.list())).toEqual([
      [LICENSE_ROW_SKIPS.pendingTransfer, 92],
      ["no license number", 20],
      [LICENSE_ROW_SKIPS.olderIssue, 2],
      [LICENSE_ROW_SKIPS.otherPremises, 1],
    ]);
    expect(tally(all.skips.list())).toEqual([
      [LICENSE_ROW_SKIPS.pendingTransfer, 17],
      ["no license number", 13],
      [LICENSE_ROW_SKIPS.otherPremises, 1],
    ]);
    const lineOf = (license: string) => phl.observations.find((o) => o.license === license)?.line;
    // 128: R15472,...,"Active","3BM1 OLDE BAR LLC","OLDE BAR","125 WALNUT ST, ..."
    // 1054: R15472,...,"Pending","COMPASS GROUP USA INC","EUREST DINING SERVICES","125 WALNUT ST, ...": a transfer applied for
    expect([lineOf("R15472"), record("R15472").owner, record("R15472").status]).toEqual([
      129,
      "3BM1 OLDE BAR LLC",
      "active",
    ]);
    // R13637: a Pending row for MECHA NOODLE BAR (line 436) and the Active holder, OCC MCNALLY'S (line 839).
    expect([lineOf("R13637"), record("R13637").owner]).toEqual([839, "OCC MCNALLY'S LLC"]);
    // G31200: "120981",... WISSAHICKON BREWING COMPANY OLDE KENSINGTON (line 190) and "80754",... WISSAHICKON
    // BREWING COMPANY at 3705 W SCHOOL HOUSE LN (line 2286): the brewery's first record stands for it.
    expect([lineOf("G31200"), record("G31200").address.line_1]).toEqual([2286, "3705 W SCHOOL HOUSE LN"]);
    // SO60874: one record (LID 130972) three times, issued Jun 4, May 7 and May 6, 2025.
    expect([lineOf("SO60874"), datesOf(record("SO60874")).issued_latest]).toEqual([285, "2025-06-04"]);
    // AR60341, two airport counters in safekeeping: LID 127234 CAMDEN FOOD CO (line 461), 127233 MI CASA CANTINA (line 739).
    expect([all.observations.find((o) => o.license === "AR60341")!.line, record("AR60341").business]).toEqual([
      739,
      "MI CASA CANTINA",
    ]);
    expect(read.skips.filter((s) => s.skip === LICENSE_ROW_SKIPS.otherPremises).map((s) => s.at)).toEqual([
      { file: "PHL_PLCB_geocoded.csv", line: 190 },
      { file: "ALL_PLCB_geocoded.csv", line: 461 },
    ]);
  });

  it("serves a lone pending application as pending, with no issue date", () => {
    // "175","125876","C1021","Club (Liquor)","Pending","THE BIG BLUE DOOR ORGANIZATION CORPORATION","THE BIG BLUE DOOR",...,NA,"May 31,2025",...
    expect([record("C1021").status, datesOf(record("C1021"))]).toEqual([
      "pending",
      { effective: null, expires: "2025-05-31", issued_original: null, issued_latest: null },
    ]);
  });

  it("gives a grain alcohol permit no expiry where the PLCB gives none, and makes a name's two spaces one", () => {
    // "19","87335","GA34755","Grain Alcohol","Active","RON  BERDES","RON BERDES",...,"Jun 29,2017",NA,...
    expect([record("GA34755").owner, record("GA34755").business, datesOf(record("GA34755"))]).toEqual([
      "RON BERDES",
      "RON BERDES",
      { effective: null, expires: null, issued_original: null, issued_latest: "2017-06-29" },
    ]);
    // The latest expiry of both files: "1403","130848","GA60826","Grain Alcohol","Active","ROY LIU",...,"Apr 8,2025","Dec 31,2030"
    const expiries = [...records.values()].map((r) => datesOf(r.record).expires ?? "").sort();
    expect([expiries.at(-1), datesOf(record("GA60826")).expires]).toEqual(["2030-12-31", "2030-12-31"]);
  });

  it("reads the one-string premises address: street, city, state and ZIP, the PLCB's two-space joints made one", () => {
    // "4","66572","AR142",...,"PITTSBURGH INTERNATIONAL AIRPORT  CENTER CORE  1000 AIRPORT BLVD, PITTSBURGH PA 15231",...
    expect(record("AR142").address).toEqual({
      line_1: "PITTSBURGH INTERNATIONAL AIRPORT CENTER CORE 1000 AIRPORT BLVD",
      line_2: null,
      city: "PITTSBURGH",
      county: "Allegheny",
      state: "PA",
      zip: "15231",
    });
    // "12","121950","D2291",...,"10 OLD CLAIRTON RD  SUITE 3  , PITTSBURGH PA 15236-3923",...
    expect(record("D2291").address.line_1).toBe("10 OLD CLAIRTON RD SUITE 3");
  });

  it("mends a ZIP, a state and a city the PLCB mistyped, and counts each", () => {
    // "593","126324","R691",...,"1540 FRANKFORD AVE, PHILADELPHIA PA 19125-",...
    expect(record("R691").address.zip).toBe("19125");
    // "285","120681","SO56017",...,"321 CHESTNUT ST, PHILADELPHIA PR 19106-2707",...
    expect([record("SO56017").address.state, record("SO56017").address.zip]).toEqual(["PA", "19106-2707"]);
    // "838","65238","R13637",...,"3300 BRIGHTON ST, PHILADELPHA PA 19149-2029",...,"Philadelphia City",...
    expect(record("R13637").address.city).toBe("PHILADELPHIA");
    expect(tally(phl.repairs.list())).toEqual([
      [ADDRESS_REPAIRS.cityTypo, 8],
      [ADDRESS_REPAIRS.zipDash, 7],
      [PA_REPAIRS.outOfStateCounty, 5],
      [ADDRESS_REPAIRS.stateFromZip, 1],
    ]);
    expect(tally(all.repairs.list())).toEqual([[ADDRESS_REPAIRS.zipDash, 9]]);
  });

  it("keeps a premises in another state with its own state and ZIP, and no Pennsylvania county", () => {
    // "2275","86578","DWS34337","Direct Wine Shipper","Active","TWIN RIDGE ESTATES LLC","TRATTORE FARMS",
    // "7878 DRY CREEK RD, GEYSERVILLE CA 95441-9444",...,"Philadelphia County",...
    expect(record("DWS34337").address).toEqual({
      line_1: "7878 DRY CREEK RD",
      line_2: null,
      city: "GEYSERVILLE",
      county: "",
      state: "CA",
      zip: "95441-9444",
    });
    // A New Jersey ZIP keeps its leading 0: "65 CRYSTAL ST FL 2, NORTH ARLINGTON NJ 07031-5611"
    expect(record("SO60874").address.zip).toBe("07031-5611");
  });

  it("has none of the other faults: no line breaks in a field, no repeated rows, no padded names, no number a spreadsheet rewrote", () => {
    // Every row is one line: the files hold a line per row and a header.
    expect([linesOf(PHILADELPHIA).length - 2, linesOf(ALLEGHENY).length - 2]).toEqual([2397, 1473]);
    expect(read.reasons.filter((r) => r.startsWith("repeated row"))).toEqual([]);
    for (const path of [PHILADELPHIA, ALLEGHENY]) {
      const raw = readFileSync(path, "utf8");
      // No quoted field starts or ends with a space.
      expect([/(^|,)" /m.test(raw), / "(,|$)/m.test(raw)]).toEqual([false, false]);
    }
    const served = [...records.values()].map((r) => r.record);
    // A letter prefix and an unpadded serial: nothing in scientific notation, no serial that lost a 0.
    expect(served.filter((r) => !/^[A-Z]{1,3}[1-9][0-9]*$/.test(r.license)).map((r) => r.license)).toEqual([]);
    expect(served.filter((r) => r.business !== r.business.trim() || r.owner !== r.owner.trim())).toEqual([]);
  });
});

describe("pa-plcb, hand-made files", () => {
  const [header, ...rows] = linesOf(PHILADELPHIA);
  const r142 = rows.find((line) => line.includes('"R142"'))!;

  it("takes a newer export of a county as that county's list, and leaves the other county's", async () => {
    const newer = temp.path("phl-newer.csv");
    writeFileSync(
      newer,
      [header, r142.replace('"Active"', '"Safekeeping"').replace('"Sep 30,2024"', '"Jun 30,2025"')].join("\n"),
    );
    const { records, files } = await readAll(paPlcb, [PHILADELPHIA, ALLEGHENY, newer]);
    expect(files[2]!.asOf).toBe("2025-06-30");
    expect(records.get("R142")!.record.status).toBe("safekeeping");
    // E2103 was in the older Philadelphia list only: the newer one no longer lists it.
    expect(records.has("E2103")).toBe(false);
    expect(records.size).toBe(1 + 1442);
  });

  it("names a file of several counties after them all: a family of its own beside each county's", async () => {
    const both = temp.path("both.csv");
    const r12441 = linesOf(ALLEGHENY).find((line) => line.includes('"R12441"'))!;
    writeFileSync(both, [header, r142, r12441].join("\n"));
    expect((await paPlcb.inspect(sourceFile(both))).family).toBe(
      "pa-plcb: licenses of Allegheny County, Philadelphia County",
    );
    expect((await readAll(paPlcb, [both])).files[0]!.coverage).toBe(
      "Allegheny and Philadelphia counties only; licenses the PLCB lists as expired are not in it",
    );
  });

  it("keeps a row with an unreadable date or no status, and says so", async () => {
    const file = temp.path("odd.csv");
    writeFileSync(file, [header, r142.replace('"Sep 30,2024"', '"Sept 31,2024"').replace('"Active"', "NA")].join("\n"));
    const { records, files } = await readAll(paPlcb, [file]);
    expect([records.get("R142")!.record.status, datesOf(records.get("R142")!.record).issued_latest]).toEqual([
      "",
      null,
    ]);
    expect(files[0]!.repairs.list().map((r) => r.reason)).toEqual([
      PA_REPAIRS.noStatus,
      "unreadable last issue date: left empty",
    ]);
  });

  it("refuses another agency's file, so that --all gives it to its own adapter", async () => {
    await expect(paPlcb.inspect(sourceFile(sharedData("ma/ma_license_list.csv")))).rejects.toThrow(UnknownLayoutError);
    await expect(paPlcb.inspect(sourceFile(sharedData("ma/ma_license_list.csv")))).rejects.toThrow(
      /needs columns LID, License Number/,
    );
  });
});
