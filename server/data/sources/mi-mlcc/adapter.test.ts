import { readFileSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { MI_REPAIRS, MI_SKIPS, miMlcc } from "./adapter.ts";
import { SOURCE_ADAPTERS } from "../adapters.ts";
import { UnknownLayoutError } from "../source-adapter.ts";
import { sourceFile } from "../../readers/source-file.ts";
import { readAll, sharedData, tempFolder } from "../../../testing/adapter-test-helpers.ts";

const LIST = sharedData("mi/Liquor_Licenses.csv");
const temp = tempFolder();
afterAll(() => temp.done());

const NO_DATES = { mi: { effective: null, expires: null, issued_original: null, issued_latest: null } };
/** An address as every row has it: the street and ZIP the row gives, in Detroit. */
const detroit = (line_1: string, zip: string) => ({
  line_1,
  line_2: null,
  city: "Detroit",
  county: "Wayne",
  state: "MI",
  zip,
});

describe("mi-mlcc, MLCC licenses in Detroit from the City's portal", async () => {
  const read = await readAll(miMlcc, [LIST]);
  const { records, outcomes } = read;
  const list = read.files[0]!;
  const served = [...records.values()].map((r) => r.record);
  const skipped = () => list.skips.list().map((s) => [s.reason, s.count, s.examples.map((e) => e.line)]);

  it("reads every row; keeps a license once per number, all but the two rows of a number two businesses share", () => {
    expect(outcomes).toBe(1969);
    expect(records.size).toBe(1966);
    expect(skipped()).toEqual([
      [MI_SKIPS.conflict, 2, [117, 302]],
      [MI_SKIPS.joined, 1, [913]],
    ]);
  });

  it("is as of the day the copy we hold was published, and covers Detroit only", async () => {
    expect(await miMlcc.inspect(sourceFile(LIST))).toMatchObject({
      layout: "Detroit open data: MLCC liquor licenses (ArcGIS CSV)",
      family: "mi-mlcc: Detroit liquor licenses",
      asOf: "2021-04-05",
      asOfFrom: "the day the file was published",
    });
    expect([list.asOf, list.asOfFrom]).toEqual(["2021-04-05", "the day the file was published"]);
    expect(list.coverage).toMatch(/^Detroit only: /);
  });

  it("maps an on-premises license field by field: the Fox Theatre's Class C, L-000006894", () => {
    // -83.0527565551769,42.3384668081481,4489,"OLYMPIA ENTERTAINMENT, INC.",FOX THEATRE,2211 Woodward Ave,48201,
    // Retail - On Premises,Class C,Regular,,L-000006894,Active,Y,Y,36
    expect(records.get("L-000006894")).toEqual({
      path: LIST,
      asOf: "2021-04-05",
      record: {
        license: "L-000006894",
        business: "FOX THEATRE",
        owner: "OLYMPIA ENTERTAINMENT, INC.",
        phone: null,
        state: "mi",
        status: "active",
        address: detroit("2211 Woodward Ave", "48201"),
        dates: NO_DATES,
        details: { class: "Regular", description: "Retail - On Premises: Class C, Regular", type: "Class C" },
      },
    });
  });

  it("keeps the same business's SDM license apart, under its own number: L-000011097", () => {
    // -83.0527565551769,42.3384668081481,4489,"OLYMPIA ENTERTAINMENT, INC.",FOX THEATRE,2211 Woodward Ave,48201,
    // Retail - Off Premises,Specially Designated Merchant,,,L-000011097,Active,Y,Y,37
    expect(records.get("L-000011097")!.record).toEqual({
      license: "L-000011097",
      business: "FOX THEATRE",
      owner: "OLYMPIA ENTERTAINMENT, INC.",
      phone: null,
      state: "mi",
      status: "active",
      address: detroit("2211 Woodward Ave", "48201"),
      dates: NO_DATES,
      details: {
        class: null,
        description: "Retail - Off Premises: Specially Designated Merchant",
        type: "Specially Designated Merchant",
      },
    });
  });

  it("maps an escrowed license: Club Armane, L-000005052", () => {
    // -82.9444989040313,42.4234814521636,3300,CLUB ARMANE LTD.,CLUB ARMANE,11233 Morang Dr,48224,
    // Retail - On Premises,Class C,Regular,,L-000005052,Escrow,Y,Y,1
    expect(records.get("L-000005052")!.record).toEqual({
      license: "L-000005052",
      business: "CLUB ARMANE",
      owner: "CLUB ARMANE LTD.",
      phone: null,
      state: "mi",
      status: "escrow",
      address: detroit("11233 Morang Dr", "48224"),
      dates: NO_DATES,
      details: { class: "Regular", description: "Retail - On Premises: Class C, Regular", type: "Class C" },
    });
  });

  it("takes the licensee as the business where there is no trade name, and reads a conditional license", () => {
    // -83.1051827570792,42.3686485089674,268077,"D-L MARKET, INC.",,8540 Linwood St,48206,
    // Retail - Off Premises,Specially Designated Distributor,Regular,,L-000431622,Conditional,Y,Y,1639
    expect(records.get("L-000431622")!.record).toMatchObject({
      business: "D-L MARKET, INC.",
      owner: "D-L MARKET, INC.",
      status: "conditional",
      details: { type: "Specially Designated Distributor", class: "Regular" },
    });
    // 296 rows have no dba; 44 more give the licensee's name as their dba.
    expect(served.filter((r) => r.business === r.owner)).toHaveLength(296 + 44);
    const count = (status: string) => served.filter((r) => r.status === status).length;
    // Rows: 1,619 Active, 333 Escrow, 17 Conditional; less 7-EXPRESS-MARKET, ICICLES and My Spot's second row.
    expect([count("active"), count("escrow"), count("conditional")]).toEqual([1618, 331, 17]);
  });

  it("joins one business's two rows of one number into a license of both types: My Spot, L-000221315", () => {
    // ...,228417,"ROBERTS, GAY A & MOSS, TANYA M",MY SPOT,1805 Springwells St,48209,Retail - On Premises,Class C,Regular,,L-000221315,Escrow,Y,Y,911
    // ...,228417,"ROBERTS, GAY A & MOSS, TANYA M",MY SPOT,1805 Springwells St,48209,Retail - Off Premises,Specially Designated Merchant,,,L-000221315,Escrow,Y,Y,912
    expect(records.get("L-000221315")!.record).toEqual({
      license: "L-000221315",
      business: "MY SPOT",
      owner: "ROBERTS, GAY A & MOSS, TANYA M",
      phone: null,
      state: "mi",
      status: "escrow",
      address: detroit("1805 Springwells St", "48209"),
      dates: NO_DATES,
      details: {
        type: "Class C, Specially Designated Merchant",
        class: "Regular",
        description: "Retail - On Premises: Class C, Regular; Retail - Off Premises: Specially Designated Merchant",
      },
    });
    expect(list.observations.find((o) => o.license === "L-000221315")!.line).toBe(912);
  });

  it("keeps neither row of a number two businesses share, rather than show either's standing: L-000008680", () => {
    // ...,5679,"FORMAN, BRENDA J",ICICLES,4453 14th St,48208,Retail - On Premises,Class C,Regular,,L-000008680,Escrow,Y,Y,116
    // ...,15168,"DALAL, ABDALKARIM",7-EXPRESS-MARKET,1000 E 7 Mile Rd,48203,Retail - Off Premises,Specially Designated Merchant,,,L-000008680,Active,Y,Y,301
    expect(records.has("L-000008680")).toBe(false);
    expect(served.filter((r) => r.business === "ICICLES" || r.business === "7-EXPRESS-MARKET")).toEqual([]);
  });

  it("writes the group's one odd spelling as the others do, and counts it", () => {
    // ...,AVALON INTERNATIONAL BREADS,1049 Woodward Ave,48226,Retail - Off Premise,Specially Designated Merchant,,MCL 436.1533(5)(a),L-000273689,Active,Y,N,1237
    expect(records.get("L-000273689")!.record.details).toEqual({
      class: null,
      description: "Retail - Off Premises: Specially Designated Merchant, MCL 436.1533(5)(a)",
      type: "Specially Designated Merchant",
    });
    expect(list.repairs.list().map((r) => [r.reason, r.count, r.examples.map((e) => e.line)])).toEqual([
      [MI_REPAIRS.offPremise, 2, [1238, 1763]],
      [MI_REPAIRS.joined, 1, [912]],
    ]);
  });

  it("has none of the other faults: repeated rows, blanks, line breaks, padded names, numbers or ZIPs a spreadsheet rewrote", () => {
    const text = readFileSync(LIST, "utf8");
    const lines = text.split("\n");
    // LF line endings, one record a line, a final line break, no blank line.
    expect(lines).toHaveLength(1 + 1969 + 1);
    expect(lines.slice(1, -1).filter((line) => line.trim() === "")).toEqual([]);
    // Apart from ObjectId (the last column), no two rows alike.
    expect(new Set(lines.slice(1, -1).map((line) => line.replace(/,\d+$/, ""))).size).toBe(1969);
    expect(served.filter((r) => !/^L-\d{9}$/.test(r.license))).toEqual([]);
    expect(served.filter((r) => !/^482\d\d$/.test(r.address.zip))).toEqual([]);
    expect(
      served.filter((r) => [r.business, r.owner, r.address.line_1].some((t) => t !== t.trim() || t === "")),
    ).toEqual([]);
  });

  it("is claimed by no other source, and refuses the other agencies' files", async () => {
    for (const adapter of SOURCE_ADAPTERS.filter((a) => a !== miMlcc)) {
      await expect(adapter.inspect(sourceFile(LIST)), adapter.name).rejects.toThrow(UnknownLayoutError);
    }
    for (const other of ["ky/ActiveLicenses.csv", "md/Liquor_Licenses.csv", "co/liquorLicense.csv"]) {
      await expect(miMlcc.inspect(sourceFile(sharedData(other))), other).rejects.toThrow(UnknownLayoutError);
    }
  });
});

describe("mi-mlcc, hand-made files", () => {
  const header = readFileSync(LIST, "utf8")
    .replace(/^\uFEFF/, "")
    .split("\n", 1)[0]!;
  const row = (number: string, name: string, status: string, type = "Class C", id = 1) =>
    `-83.0,42.3,${id},${name} INC.,${name},1 Woodward Ave,48226,Retail - On Premises,${type},Regular,,${number},${status},Y,Y,${id}`;

  it("puts back a number's lost leading zeros, refuses a number not in MLCC's form, and keeps an empty status", async () => {
    const file = temp.path("mi.csv");
    writeFileSync(
      file,
      [
        header,
        row("L-5052", "ARMANE", "Active"),
        row("L-000000001", "ONE", ""),
        row("5052", "BARE", "Active"),
        row("L-00000000X", "TYPO", "Active"),
        row("", "NONE", "Active"),
      ].join("\n"),
    );
    const { records, skips, files } = await readAll(miMlcc, [file]);
    expect([...records.values()].map((r) => [r.record.license, r.record.status])).toEqual([
      ["L-000005052", "active"],
      ["L-000000001", ""],
    ]);
    expect(skips.map((s) => [s.at.line, s.skip])).toEqual([
      [4, "license number not in MLCC's form (5052)"],
      [5, "license number not in MLCC's form (L-00000000X)"],
      [6, "no license number"],
    ]);
    expect(files[0]!.repairs.list().map((r) => [r.reason, r.examples.map((e) => e.line)])).toEqual([
      [MI_REPAIRS.numberZeros, [2]],
      [MI_REPAIRS.noStatus, [3]],
    ]);
    // A copy we do not know by its SHA-256 states no date.
    expect([files[0]!.asOf, files[0]!.asOfFrom]).toEqual([null, "not known"]);
  });

  it("joins a number's rows only where one business and one status hold them all", async () => {
    const file = temp.path("mi-shared.csv");
    writeFileSync(
      file,
      [
        header,
        row("L-000000001", "ONE", "Active", "Class C"),
        row("L-000000001", "ONE", "Active", "Specially Designated Merchant"),
        row("L-000000001", "ONE", "Active", "Specially Designated Distributor"),
        row("L-000000002", "TWO", "Active"),
        row("L-000000002", "TWO", "Escrow", "Specially Designated Merchant"),
      ].join("\n"),
    );
    const { records, skips } = await readAll(miMlcc, [file]);
    expect([...records.keys()]).toEqual(["L-000000001"]);
    expect(records.get("L-000000001")!.record.details.type).toBe(
      "Class C, Specially Designated Merchant, Specially Designated Distributor",
    );
    expect(skips.map((s) => [s.at.line, s.skip])).toEqual([
      [3, MI_SKIPS.joined],
      [4, MI_SKIPS.joined],
      [5, MI_SKIPS.conflict],
      [6, MI_SKIPS.conflict],
    ]);
  });
});
