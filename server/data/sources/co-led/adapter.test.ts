import { readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { APPROVED, CO_REPAIRS, coLed } from "./adapter.ts";
import { SPACES_REPAIR, ZIP_REPAIRS } from "../../import/fields.ts";
import { findSources } from "../../import/find-sources.ts";
import { SourceFileError, UnknownLayoutError } from "../source-adapter.ts";
import { sourceFile } from "../../readers/source-file.ts";
import { readAll, sharedData, tempFolder } from "../../../testing/adapter-test-helpers.ts";

const LIST = sharedData("co/Recently_Approved_Liquor_Licenses_in_Colorado.csv");
const NUMBERLESS = sharedData("co/liquorLicense.csv");
const temp = tempFolder();
afterAll(() => temp.done());

/** A license of the list as the import serves it: the fields each row gives, the rest as the list has none. */
const approved = (fields: {
  license: string;
  business: string;
  owner: string;
  line_1: string;
  city: string;
  state?: string;
  zip: string;
  issued: string;
  type: string;
}) => ({
  path: LIST,
  // The list states no date: its newest Issue Date, 02/28/19, stands for it.
  asOf: "2019-02-28",
  record: {
    license: fields.license,
    business: fields.business,
    owner: fields.owner,
    phone: null,
    state: "co",
    status: "approved",
    address: {
      line_1: fields.line_1,
      line_2: null,
      city: fields.city,
      county: "",
      state: fields.state ?? "CO",
      zip: fields.zip,
    },
    dates: { co: { effective: null, expires: null, issued_original: null, issued_latest: fields.issued } },
    details: { class: null, description: null, type: fields.type },
  },
});

describe("co-led, the LED's recently approved licenses", async () => {
  const read = await readAll(coLed, [LIST]);
  const { records, skips, outcomes } = read;
  const file = read.files[0]!;
  const repairs = () => file.repairs.list().map((r) => [r.reason, r.count, r.examples.map((e) => e.line)]);
  const lineOf = (license: string) => file.observations.find((o) => o.license === license)!.line;
  const served = [...records.values()].map((r) => r.record);

  it("reads every row as a license of its own: 1,157 rows on 2,722 lines, 1,157 numbers, no repeated row", () => {
    expect(outcomes).toBe(1157);
    expect(skips).toEqual([]);
    expect(records.size).toBe(1157);
    expect(readFileSync(LIST, "utf8").split("\n").length - 1).toBe(2722);
  });

  it("is as of its newest issue date, and covers the months it lists, saying which month it lacks", () => {
    expect([file.asOf, file.asOfFrom]).toEqual(["2019-02-28", "the newest date in the file"]);
    expect(file.coverage).toBe(
      "licenses approved 2018-06 to 2019-02 only (the LED's list of recently approved licenses; none listed for 2018-10)",
    );
  });

  it("keeps a license numbered before October 2018 in its seven digits, reading the row its Location spreads over three lines", () => {
    // YARD HOUSE USA INC,YARD HOUSE #8329,Hotel & Restaurant (city),09/10/18,4710504,1555 COURT PLACE,Denver,CO,80202,
    // "1555 COURT PLACE\nDenver, CO 80202\n(39.742985, -104.989421)"
    expect(records.get("4710504")).toEqual(
      approved({
        license: "4710504",
        business: "YARD HOUSE #8329",
        owner: "YARD HOUSE USA INC",
        line_1: "1555 COURT PLACE",
        city: "Denver",
        zip: "80202",
        issued: "2018-09-10",
        type: "Hotel & Restaurant (city)",
      }),
    );
    expect(lineOf("4710504")).toBe(146);
  });

  it("keeps a license numbered from November 2018 on in the LED's new form, 03- for liquor", () => {
    // RC FILLMORE LLC,FUZZY'S TACO SHOP,Hotel & Restaurant (city),01/07/19,03-10849,3111 NORTH CHESTNUT STREET,Colorado Springs,CO,80907,
    expect(records.get("03-10849")).toEqual(
      approved({
        license: "03-10849",
        business: "FUZZY'S TACO SHOP",
        owner: "RC FILLMORE LLC",
        line_1: "3111 NORTH CHESTNUT STREET",
        city: "Colorado Springs",
        zip: "80907",
        issued: "2019-01-07",
        type: "Hotel & Restaurant (city)",
      }),
    );
    expect(lineOf("03-10849")).toBe(2423);
  });

  it("keeps a fermented malt beverage license's 04- number", () => {
    // MURPHY OIL USA INC,MURPHY EXPRESS 8586,Fermented Malt Beverage Off (city),12/26/18,04-01053,120 WEST 64TH STREET,Loveland,CO,80538,"120 WEST 64TH STREET\n..."
    expect(records.get("04-01053")).toEqual(
      approved({
        license: "04-01053",
        business: "MURPHY EXPRESS 8586",
        owner: "MURPHY OIL USA INC",
        line_1: "120 WEST 64TH STREET",
        city: "Loveland",
        zip: "80538",
        issued: "2018-12-26",
        type: "Fermented Malt Beverage Off (city)",
      }),
    );
  });

  it("serves each number as the LED wrote it: 558 of seven digits (46 for 3.2% beer, 47 the rest), 599 of the new form; none rewritten by a spreadsheet", () => {
    const numbers = served.map((r) => r.license);
    expect(numbers.filter((n) => /^46\d{5}$/.test(n))).toHaveLength(65);
    expect(numbers.filter((n) => /^47\d{5}$/.test(n))).toHaveLength(493);
    expect(numbers.filter((n) => /^03-\d{5}$/.test(n))).toHaveLength(445);
    expect(numbers.filter((n) => /^04-\d{5}$/.test(n))).toHaveLength(154);
    expect(repairs().map(([reason]) => reason)).not.toContain(CO_REPAIRS.numberZero);
  });

  it("lists no license issued in October 2018, when the numbering changed, and every license as approved", () => {
    const months = new Set(served.map((r) => r.dates.co!.issued_latest!.slice(0, 7)));
    expect([...months].sort()).toEqual([
      "2018-06",
      "2018-07",
      "2018-08",
      "2018-09",
      "2018-11",
      "2018-12",
      "2019-01",
      "2019-02",
    ]);
    expect(new Set(served.map((r) => r.status))).toEqual(new Set([APPROVED]));
  });

  it("keeps an out-of-state shipper's state, and gives a ZIP+4 written without its dash one", () => {
    // "LYNMAR WINERY, LLC",LYNMAR ESTATE WINERY,Importer (vinous & spirituous),09/13/18,4710366,3905 FREI ROAD,Sebastopol,CA,954722311,...
    expect(records.get("4710366")!.record.address).toEqual({
      line_1: "3905 FREI ROAD",
      line_2: null,
      city: "Sebastopol",
      county: "",
      state: "CA",
      zip: "95472-2311",
    });
    expect(served.filter((r) => r.address.state !== "CO")).toHaveLength(165);
  });

  it("puts back the leading 0 a spreadsheet dropped from a ZIP in Vermont, New Jersey and Connecticut", () => {
    // SHELBURNE VINEYARD,SHELBURNE VINEYARD,Wine Delivery Permit,07/12/18,4710236,6308 SHELBURNE ROAD,Shelburne,VT,5482,...
    expect(records.get("4710236")).toEqual(
      approved({
        license: "4710236",
        business: "SHELBURNE VINEYARD",
        owner: "SHELBURNE VINEYARD",
        line_1: "6308 SHELBURNE ROAD",
        city: "Shelburne",
        state: "VT",
        zip: "05482",
        issued: "2018-07-12",
        type: "Wine Delivery Permit",
      }),
    );
    // WORLDWIDE LIBATIONS LLC ... Warren,NJ,7059; UNITED STATES BEVERAGE LLC ... Stamford,CT,6902
    expect([records.get("4709369")!.record.address.zip, records.get("04-01102")!.record.address.zip]).toEqual([
      "07059",
      "06902",
    ]);
    expect(repairs()).toContainEqual([ZIP_REPAIRS.leadingZero, 3, [1113, 1395, 2572]]);
  });

  it("leaves the owner empty where Licensee Name is blank, and says so", () => {
    // ,MIGHTY RIVER BREWING,Manufacturer (brewery),08/30/18,4710410,6383 FAIRGROUNDS AVENUE BUILDING 1 UNIT B,Windsor,CO,80550,
    expect([records.get("4710410")!.record.business, records.get("4710410")!.record.owner]).toEqual([
      "MIGHTY RIVER BREWING",
      "",
    ]);
    expect(repairs()).toContainEqual([CO_REPAIRS.noLicensee, 6, [265, 912, 934, 1172, 1328]]);
  });

  it("serves a manager permit as the LED writes it: the manager as the business, the store's company as the licensee", () => {
    // COSTCO WHOLESALE CORPORATION,BRANDON A RUIZ,Manager Permit (LLDS),09/07/18,4710446,7164 CAMPHOR LANE,Colorado Springs,CO,80927,...
    const permit = records.get("4710446")!.record;
    expect([permit.business, permit.owner, permit.details.type]).toEqual([
      "BRANDON A RUIZ",
      "COSTCO WHOLESALE CORPORATION",
      "Manager Permit (LLDS)",
    ]);
  });

  it("takes out doubled spaces in names and streets (no cell has them at its ends), a repair per row", () => {
    // BOOM BYE YEAH LLC,GOLDEN LIQUOR,Liquor Store (city),02/11/19,03-10994,601  13TH STREET,Golden,CO,80401,
    expect(records.get("03-10994")!.record.address.line_1).toBe("601 13TH STREET");
    // OLD TOWN CELLARS  LLC,OLD TOWN CELLARS,Wine Delivery Permit,08/27/18,4709382,890 MAIN STREET SUITE #103,Park City,UT,84060,...
    expect(records.get("4709382")!.record.owner).toBe("OLD TOWN CELLARS LLC");
    expect(repairs()).toContainEqual([SPACES_REPAIR, 10, [335, 555, 804, 1463, 1825]]);
  });

  it("repairs nothing else", () => {
    expect(repairs().map(([reason]) => reason)).toEqual([
      SPACES_REPAIR,
      CO_REPAIRS.noLicensee,
      ZIP_REPAIRS.leadingZero,
    ]);
  });
});

describe("co-led, the 2015 list without license numbers", () => {
  it("is recognised and refused, saying why, rather than taken for an unknown file", async () => {
    const refusal = coLed.inspect(sourceFile(NUMBERLESS));
    await expect(refusal).rejects.toThrow(SourceFileError);
    await expect(refusal).rejects.not.toThrow(UnknownLayoutError);
    await expect(refusal).rejects.toThrow(/liquorLicense\.csv: Colorado licensees without license numbers/);
  });

  it("is reported by --all as not imported, with its reason, beside the list that is", async () => {
    const found = await findSources(dirname(LIST));
    expect(found.bySource.map((s) => [s.adapter.name, s.paths])).toEqual([["co-led", [LIST]]]);
    expect(found.unusable).toEqual([
      {
        path: NUMBERLESS,
        reason: expect.stringMatching(/^co-led: Colorado licensees without license numbers .* cannot be served/),
      },
    ]);
    expect(found.unknown).toEqual([]);
  });
});

describe("co-led, hand-made files", () => {
  const header = readFileSync(LIST, "utf8").split("\n", 1)[0]!;
  const row = (number: string, issued = "01/07/19", zip = "80907") =>
    `SOME LLC,SOME BAR,Tavern (city),${issued},${number},1 MAIN STREET,Denver,CO,${zip},`;

  it("puts back a new-form number's lost 0, skips a number in neither form, and keeps a row with an unreadable date", async () => {
    const file = temp.path("co.csv");
    writeFileSync(
      file,
      [
        header,
        row("3-10850"),
        row("4.71E+06"),
        row(""),
        row("4710999", "13/45/18"),
        row("03-10851", "01/07/2019", "8020"),
      ].join("\n"),
    );
    const { records, skips, files } = await readAll(coLed, [file]);
    expect([...records.keys()]).toEqual(["03-10850", "4710999", "03-10851"]);
    expect(records.get("4710999")!.record.dates.co!.issued_latest).toBeNull();
    expect(records.get("03-10851")!.record.dates.co!.issued_latest).toBe("2019-01-07");
    // A 4-digit ZIP in Colorado is not one that lost a 0: it is left empty.
    expect(records.get("03-10851")!.record.address.zip).toBe("");
    expect(skips.map((s) => [s.at.line, s.skip])).toEqual([
      [3, "license number not in the LED's forms, 4710504 or 03-10849 (4.71E+06)"],
      [4, "no license number"],
    ]);
    expect(files[0]!.repairs.list().map((r) => [r.reason, r.examples.map((e) => e.line)])).toEqual([
      [CO_REPAIRS.numberZero, [2]],
      ["unreadable issue date: left empty", [5]],
      [ZIP_REPAIRS.unusable, [6]],
    ]);
  });

  it("refuses a file of an unknown layout", async () => {
    const file = temp.path("other.csv");
    writeFileSync(file, "LICENSE,NAME\n1,X\n");
    await expect(coLed.inspect(sourceFile(file))).rejects.toThrow(UnknownLayoutError);
    await expect(coLed.inspect(sourceFile(file))).rejects.toThrow(/needs columns Licensee Name/);
  });
});
