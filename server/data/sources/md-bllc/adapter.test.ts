import { readFileSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { MD_REPAIRS, MD_SKIPS, mdBllc } from "./adapter.ts";
import { SPACES_REPAIR } from "../../import/fields.ts";
import { UnknownLayoutError } from "../source-adapter.ts";
import { sourceFile } from "../../readers/source-file.ts";
import { readAll, sharedData, tempFolder } from "../../../testing/adapter-test-helpers.ts";

const LIST = sharedData("md/Liquor_Licenses.csv");
const temp = tempFolder();
afterAll(() => temp.done());

/** A Baltimore license as the import serves it: the fields its rows give, the rest as the board has none. */
const baltimore = (fields: {
  license: string;
  business: string;
  owner: string;
  status: string;
  line_1: string;
  zip: string;
  effective: string;
  expires: string;
  class: string;
  type: string;
  description: string;
}) => ({
  path: LIST,
  // The file states no date: its newest transfer (2015-LBD7-46's, 07/20/2015) stands for it.
  asOf: "2015-07-20",
  record: {
    license: fields.license,
    business: fields.business,
    owner: fields.owner,
    phone: null,
    state: "md",
    status: fields.status,
    address: {
      line_1: fields.line_1,
      line_2: null,
      city: "BALTIMORE",
      county: "BALTIMORE CITY",
      state: "MD",
      zip: fields.zip,
    },
    dates: { md: { effective: fields.effective, expires: fields.expires, issued_original: null, issued_latest: null } },
    details: { class: fields.class, description: fields.description, type: fields.type },
  },
});

describe("md-bllc, Baltimore City's liquor licenses, 2014 and 2015", async () => {
  const read = await readAll(mdBllc, [LIST]);
  const { records, outcomes } = read;
  const file = read.files[0]!;
  const tally = (list: typeof file.repairs) =>
    list.list().map((r) => [r.reason, r.count, r.examples.map((e) => e.line)]);
  const lineOf = (license: string) => file.observations.find((o) => o.license === license)!.line;
  const served = [...records.values()].map((r) => r.record);

  it("reads 4,671 rows (14,014 lines) as 2,595 licenses, one per year, class and number", () => {
    expect(outcomes).toBe(4671);
    expect(readFileSync(LIST, "utf8").split("\n").length - 1).toBe(14014);
    expect(records.size).toBe(2595);
    expect(served.filter((r) => r.license.startsWith("2014-"))).toHaveLength(1314);
    expect(served.filter((r) => r.license.startsWith("2015-"))).toHaveLength(1281);
  });

  it("is as of its newest transfer, and covers Baltimore City's two license years", () => {
    expect([file.asOf, file.asOfFrom]).toEqual(["2015-07-20", "the newest date in the file"]);
    expect(file.coverage).toBe(
      "Baltimore City only, license years 2014 and 2015 (the board re-numbers licenses each year)",
    );
  });

  it("folds a license's row per licensee into one license naming each, for the use of its company; each year's number its own license", () => {
    // AE,AE,6,07/01/2014,06/30/2015,2014,$1000.00,1300,Renewed,BRIAN,SHULMAN,SCORES BALTIMORE,"SCMD, LLC",Adult,NULL,NULL,615 FALLSWAY,21202,... (line 2)
    // AE,AE,6,...,2014,...,Renewed,ANDREW J.,ALLEY,SCORES BALTIMORE,...   (line 4163)
    // AE,AE,6,...,2014,...,Renewed,ANDREW,ALLEY,SCORES BALTIMORE,...      (line 10583)
    const scores = {
      business: "SCORES BALTIMORE",
      status: "renewed",
      line_1: "615 FALLSWAY",
      zip: "21202",
      class: "AE",
      type: "AE",
      description: "Adult",
    };
    expect(records.get("2014-AE-6")).toEqual(
      baltimore({
        ...scores,
        license: "2014-AE-6",
        owner: "BRIAN SHULMAN; ANDREW J. ALLEY; ANDREW ALLEY for the use of SCMD, LLC",
        effective: "2014-07-01",
        expires: "2015-06-30",
      }),
    );
    expect(lineOf("2014-AE-6")).toBe(2);
    // AE,AE,5,07/01/2015,06/30/2016,2015,$1000.00,1275,Renewed,ANDREW J.,ALLEY,SCORES BALTIMORE,... (line 4334), then BRIAN SHULMAN, ANDREW ALLEY
    expect(records.get("2015-AE-5")).toEqual(
      baltimore({
        ...scores,
        license: "2015-AE-5",
        owner: "ANDREW J. ALLEY; BRIAN SHULMAN; ANDREW ALLEY for the use of SCMD, LLC",
        effective: "2015-07-01",
        expires: "2016-06-30",
      }),
    );
    // The board's 2015 AE 6 is another business altogether.
    expect(records.get("2015-AE-6")!.record.business).toBe("GODDESS");
  });

  it("serves a restaurant of two licensees with its class, what it may sell and its days", () => {
    // LB,BWL,67,05/01/2015,04/30/2016,2015,$1320.00,382,Renewed,HOU YIN,CHEN,PAUL CHEN HONG KONG RESTAURANT,
    //   "CHEN'S HONG KONG RESTAURANT AT BALTIMORE, INC.",Restaurant,7 days,"Beer, Wine, & Liquor",2426-32 CHARLES STREET NORTH,21218,... (line 8)
    // LB,BWL,67,...,Renewed,QING,CHEN,... (line 4373)
    expect(records.get("2015-LB-67")).toEqual(
      baltimore({
        license: "2015-LB-67",
        business: "PAUL CHEN HONG KONG RESTAURANT",
        owner: "HOU YIN CHEN; QING CHEN for the use of CHEN'S HONG KONG RESTAURANT AT BALTIMORE, INC.",
        status: "renewed",
        line_1: "2426-32 CHARLES STREET NORTH",
        zip: "21218",
        effective: "2015-05-01",
        expires: "2016-04-30",
        class: "LB",
        type: "BWL",
        description: "Restaurant (Beer, Wine, & Liquor, 7 days)",
      }),
    );
  });

  it("serves a closed license as closed, its licensees' names as written (GRAHAM, JR.; a trailing space taken off)", () => {
    // LC,BWL,16,05/01/2015,04/30/2016,2015,$550.00,313,Closed,BERNARD C.,"GRAHAM, JR.",SPIRIT OF CHESAPEAKE LODGE #1107 IBPOEW,
    //   SPIRIT OF CHESAPEAKE LODGE #1107 IBPOEW,Non-Profits only,7 days,"Beer, Wine, & Liquor",2009-11 FREDERICK AVENUE,21223,... (line 5)
    // LC,BWL,16,...,Closed,"THOMAS B. ",SAYLES,... (line 1649); LC,BWL,16,...,Closed,MICHAEL,WATSON,... (line 5126)
    expect(records.get("2015-LC-16")).toEqual(
      baltimore({
        license: "2015-LC-16",
        business: "SPIRIT OF CHESAPEAKE LODGE #1107 IBPOEW",
        owner:
          "BERNARD C. GRAHAM, JR.; THOMAS B. SAYLES; MICHAEL WATSON for the use of SPIRIT OF CHESAPEAKE LODGE #1107 IBPOEW",
        status: "closed",
        line_1: "2009-11 FREDERICK AVENUE",
        zip: "21223",
        effective: "2015-05-01",
        expires: "2016-04-30",
        class: "LC",
        type: "BWL",
        description: "Non-Profits only (Beer, Wine, & Liquor, 7 days)",
      }),
    );
  });

  it("serves a license transferred in the year as its transfer's certificate, and skips the rows of the one it replaced", () => {
    // LBD7,BWL,325,04/21/2015,04/30/2015,2014,$0.00,TT0898,Transferred,OMAR,BLACK,CARDINAL TAVERN,"TBN AUDIO, LLC",Tavern,7 days,... (line 101)
    // LBD7,BWL,325,05/01/2014,04/30/2015,2014,$1320.00,898,Transferred,LARRY E.,"ROHLEDER, JR",CARDINAL TAVERN,... (line 10952: skipped)
    expect(records.get("2014-LBD7-325")).toEqual(
      baltimore({
        license: "2014-LBD7-325",
        business: "CARDINAL TAVERN",
        owner: "OMAR BLACK for the use of TBN AUDIO, LLC",
        status: "transferred",
        line_1: "901 CLINTON STREET SOUTH",
        zip: "21224",
        effective: "2015-04-21",
        expires: "2015-04-30",
        class: "LBD7",
        type: "BWL",
        description: "Tavern (Beer, Wine, & Liquor, 7 days)",
      }),
    );
    expect(read.skips.filter((s) => s.at.line === 10952).map((s) => s.skip)).toEqual([MD_SKIPS.transferred]);
    // A transfer's certificate can be dated before the year's renewal: T0347 of 04/21/2015 (line 9611) is still the later.
    // LA,BWL,84,04/21/2015,04/30/2016,2015,$0.00,T0347,Transferred,STACIE,HOUCK,LEXINGTON LIQUORS,"CBLJS, INC.",..., LEXINGTON MARKET,21201
    expect(records.get("2015-LA-84")!.record.owner).toBe("STACIE HOUCK for the use of CBLJS, INC.");
    expect(tally(file.skips)).toEqual([[MD_SKIPS.transferred, 29, [10952, 134, 2864, 545, 755]]]);
  });

  it("takes a license's status from the rows that give it, and leaves it empty (read as check) where every row says NULL", () => {
    // LBHM,BWL,9,05/01/2014,...,594,Renewed,PATRICIA,YEVICE-EISENBERG,... (line 29); ...,594,NULL,ANDREW J.,WELCH,... (6335); ...,NULL,BARRY A.N.,BLOOM (6404)
    expect(records.get("2014-LBHM-9")!.record.status).toBe("renewed");
    expect(tally(file.repairs)).toContainEqual([MD_REPAIRS.statusFromOthers, 2, [6335, 6056]]);
    // LB,BWL,313,05/05/2015,04/30/2016,2015,$0.00,T1237,NULL,ERIC,LEVITT,NO WAY JOSE CAFE,"38 CROSS, LLC",... (5327); ...,NULL,PATRICK,MORROW (6704)
    expect(records.get("2015-LB-313")!.record.status).toBe("");
    expect(served.filter((r) => r.status === "")).toHaveLength(5);
    expect(tally(file.repairs)).toContainEqual([MD_REPAIRS.noStatus, 5, [1106, 1403, 5327, 9632, 11648]]);
    const statuses = new Map<string, number>();
    for (const r of served) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    expect(Object.fromEntries(statuses)).toEqual({ renewed: 2435, transferred: 142, closed: 13, "": 5 });
  });

  it("keeps the first row's premises where a license's rows give two, and says so", () => {
    // LBD7,BWL,397,08/29/2014,04/30/2015,2014,$200.00,T1105,Transferred,NINA,GILKENSON,MOBTOWN BALLROOM,...,861 WASHINGTON BOULEVARD,21230 (line 5933)
    // LBD7,BWL,397,08/29/2014,04/30/2015,2014,$200.00,T1105,Transferred,MICHAEL,SEGUIN,MOBTOWN BALLROOM,...,4219-21 CURTIS AVENUE,21226 (line 7727)
    const mobtown = records.get("2014-LBD7-397")!.record;
    expect([mobtown.address.line_1, mobtown.address.zip, mobtown.owner]).toEqual([
      "861 WASHINGTON BOULEVARD",
      "21230",
      "NINA GILKENSON; MICHAEL SEGUIN for the use of CHARM CITY SWING, LLC",
    ]);
    expect(tally(file.repairs)).toContainEqual([MD_REPAIRS.rowsDiffer, 1, [7727]]);
  });

  it("reads NULL and N/A as blanks: no company to name, no beverages or days to describe", () => {
    // LC,BWL,22,05/01/2014,...,Renewed,LORI,UNDERWOOD-GARRETT,"BALTIMORE FIRE FIGHTERS, LOCAL 734",N/A,Non-Profits only,... (line 83)
    expect(records.get("2014-LC-22")!.record.owner).toBe("LORI UNDERWOOD-GARRETT; RUSSELL LICHTENBERG; JOHN P. BURKE");
    expect(served.some((r) => /\bNULL\b|N\/A/.test(JSON.stringify(r)))).toBe(false);
    // The zoo's DayPerWeek is "every ": not a number of days, so left out.
    expect(served.filter((r) => r.details.class === "LMZ").map((r) => r.details.description)).toEqual([
      "Zoo License (Beer, Wine & Liquor)",
      "Zoo License (Beer, Wine & Liquor)",
    ]);
  });

  it("tidies names and streets with spaces around them or doubled (the Lexington Market stalls' ' LEXINGTON MARKET'), a repair per row", () => {
    expect(records.get("2015-LA-84")!.record.address.line_1).toBe("LEXINGTON MARKET");
    expect(records.get("2014-LA-165")!.record.owner).toBe("YOUNG SUN HONG for the use of NEW LIQUOR DOCTOR, INC.");
    expect(tally(file.repairs)).toContainEqual([SPACES_REPAIR, 467, [1649, 4631, 35, 1925, 10637]]);
  });

  it("drops the placeholder the board wrote for a missing house number", () => {
    // LBRL,BWL,1,05/01/2014,04/30/2015,2014,...,PIMLICO RACE COURSE,"MARYLAND TURF CATERERS, INC.",Racetrack,...,N/A BELVEDERE & PARK HEIGHTS,21215
    expect(records.get("2014-LBRL-1")!.record.address.line_1).toBe("BELVEDERE & PARK HEIGHTS");
    expect(served.filter((r) => /^HARBORPLACE - 301 LIGHT ST\.$/.test(r.address.line_1))).toHaveLength(1);
    expect(tally(file.repairs)).toContainEqual([MD_REPAIRS.streetNumber, 5, [4001, 5684, 8069, 12914, 13034]]);
  });

  it("keys each license in a form a clerk can type and a URL can carry, a class with a dash included", () => {
    // LA-2,BWL,3,05/01/2015,04/30/2016,2015,$858.00,73,Renewed,CHANG H.,CHO,CARLTON LIQUORS,"GOLD MEDAL, INC.",Package Goods Only,6 days,... (line 515)
    expect(records.get("2015-LA-2-3")!.record.details).toEqual({
      class: "LA-2",
      type: "BWL",
      description: "Package Goods Only (Beer, Wine, & Liquor, 6 days)",
    });
    expect(served.filter((r) => encodeURIComponent(r.license) !== r.license)).toEqual([]);
    // Every licensee of every row kept is named once: 4,671 rows less the 29 of certificates a transfer replaced,
    // 2,047 of them a further licensee of a license on an earlier row, each counted.
    const people = served.flatMap((r) => r.owner.split(" for the use of ")[0]!.split("; "));
    expect(people).toHaveLength(4642);
    expect(tally(file.repairs)).toContainEqual([MD_REPAIRS.furtherLicensee, 2047, [4163, 10583, 1649, 5126, 4373]]);
  });

  it("repairs nothing else, and finds no repeated row, ZIP or number a spreadsheet rewrote", () => {
    expect(tally(file.repairs).map(([reason]) => reason)).toEqual([
      MD_REPAIRS.furtherLicensee,
      SPACES_REPAIR,
      MD_REPAIRS.streetNumber,
      MD_REPAIRS.noStatus,
      MD_REPAIRS.statusFromOthers,
      MD_REPAIRS.rowsDiffer,
    ]);
    expect(served.every((r) => /^212\d{2}$/.test(r.address.zip))).toBe(true);
  });
});

describe("md-bllc, hand-made files", () => {
  const header = readFileSync(LIST, "utf8").split("\n", 1)[0]!;
  const row = (number: string, first: string, status = "Renewed", certificate = "10") =>
    `LA,BWL,${number},05/01/2015,04/30/2016,2015,$858.00,${certificate},${status},${first},DOE,A LIQUORS,N/A,` +
    `Package goods only,6 days,"Beer, Wine, & Liquor",1 MAIN STREET,21201,"1 MAIN STREET\n21201\n(39.3, -76.6)"`;

  it("counts a repeated licensee row once, skips a row without a usable number, and names each licensee once", async () => {
    const file = temp.path("md.csv");
    writeFileSync(
      file,
      [header, row("7", "JANE"), row("7", "JANE"), row("7", "JOHN"), row("NULL", "JIM"), row("7.0", "JO")].join("\n"),
    );
    const { records, skips, outcomes } = await readAll(mdBllc, [file]);
    expect(outcomes).toBe(5);
    expect(records.get("2015-LA-7")!.record.owner).toBe("JANE DOE; JOHN DOE");
    expect(skips.map((s) => [s.at.line, s.skip])).toEqual([
      [14, "LicenseNumber is not a whole number (7.0)"],
      [11, "no license number"],
      [5, MD_SKIPS.repeated],
    ]);
  });

  it("refuses a file of an unknown layout", async () => {
    const file = temp.path("other.csv");
    writeFileSync(file, "LICENSE,NAME\n1,X\n");
    await expect(mdBllc.inspect(sourceFile(file))).rejects.toThrow(UnknownLayoutError);
  });
});
