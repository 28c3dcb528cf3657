import Database from "better-sqlite3";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { TX_REPAIRS, TX_STATUS, txCpa } from "./adapter.ts";
import { loadDecodingTable } from "../../../../src/contract/decoding/decode.ts";
import { licenseVerdict } from "../../../../src/contract/verdict.ts";
import { readAll, sharedData, tempFolder } from "../../../testing/adapter-test-helpers.ts";
import { findSources } from "../../import/find-sources.ts";
import { sourceFile } from "../../readers/source-file.ts";
import { UnknownLayoutError } from "../source-adapter.ts";

const PULLED = sharedData("tx/dev_tabc_restaurants.db");
const EXPORTED = sharedData("tx/Mixed_Beverage_Gross_Receipts_20260125.csv");
const REPEATED = "repeated row (the same license with the same facts): counted once";
const CONFLICT = "the license number is on an earlier row with other facts: the first row is kept";
const temp = tempFolder();
afterAll(() => temp.done());

/** The SQLite file's own rows, asked of it directly. */
function query<T>(sql: string): T[] {
  const db = new Database(PULLED, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

const NO_DATES = { tx: { effective: null, expires: null, issued_original: null, issued_latest: null } };

describe("tx-cpa, the Comptroller's mixed-beverage filings: TABC permit numbers, not a roster", async () => {
  const read = await readAll(txCpa, [PULLED, EXPORTED]);
  const { records, histories } = read;
  const pulled = read.files[0]!;
  const exported = read.files[1]!;
  const tally = (t: typeof pulled.skips) => t.list().map((r) => [r.reason, r.count, r.examples.map((e) => e.line)]);
  const served = [...records.values()].map((r) => r.record);

  it("reads the 5,000 rows pulled from the API as 4,083 permits: a permit on several months' rows once", () => {
    expect([pulled.rowsRead, pulled.observations.length]).toEqual([5000, 4083]);
    expect(tally(pulled.skips)).toEqual([
      [REPEATED, 886, [100, 114, 162, 219, 220]],
      [CONFLICT, 31, [737, 998, 1236, 1410, 1417]],
    ]);
    expect(query("SELECT DISTINCT tabc_permit_number FROM restaurants")).toHaveLength(4083);
  });

  it("dates the pull by the day its rows say they were pulled, and the export by its name", () => {
    expect([pulled.asOf, pulled.asOfFrom]).toEqual(["2025-10-22", "stated in the file"]);
    expect([exported.asOf, exported.asOfFrom]).toEqual(["2026-01-25", "the file's name"]);
  });

  it("says what each file holds: tax filings, not a roster, a permit missing here perhaps licensed", () => {
    expect(pulled.coverage).toBe(
      "not a license roster: TABC permit numbers named in the Comptroller's mixed-beverage tax filings (4,083 permits at locations in 173 counties, a statewide slice of the filings pulled 2025-10-22); a permit missing here may be licensed",
    );
    expect(exported.coverage).toBe(
      "not a license roster: TABC permit numbers named in the Comptroller's mixed-beverage tax filings (87 permits of Travis County taxpayers, an export of the filings); a permit missing here may be licensed",
    );
  });

  it("keeps the pull's permits when the newer, smaller export is read after it: two partial lists, the newer wins a permit both name", () => {
    expect([exported.rowsRead, exported.observations.length]).toEqual([87, 87]);
    // 4,083 + 87, less the 9 permits both name.
    expect(records.size).toBe(4161);
    expect(records.get("RM789665")!.path).toBe(PULLED);
    expect(records.get("MB911490")).toMatchObject({ path: EXPORTED, asOf: "2026-01-25" });
  });

  it("gives a permit both files name one history: listed in both, from the pull to the export, nothing changed", () => {
    expect(histories.get("MB911490")).toEqual({
      entries: [{ event: "first_seen", date: "2025-10-22", since: null, source: 1, changes: [] }],
      listings: [{ from: "2025-10-22", to: "2026-01-25", lists: 2, first_source: 1, last_source: 2 }],
    });
  });

  it("serves a permit of the export as the export has it", () => {
    // line 2: "32055985694","OF RIGOR, LLC","PO BOX 684867","AUSTIN","TX","78768","227","1",
    //   "THE ROOSEVELT ROOM & THE ELEANOR","307 W 5TH ST # 307B","AUSTIN","TX","78701","227","Y","MB911490",
    //   "06/17/2015",,"12/31/2025","$502,347","$34,727","$22,937","$0","$560,011"
    expect(records.get("MB911490")).toEqual({
      path: EXPORTED,
      asOf: "2026-01-25",
      record: {
        license: "MB911490",
        business: "THE ROOSEVELT ROOM & THE ELEANOR",
        owner: "OF RIGOR, LLC",
        phone: null,
        state: "tx",
        status: TX_STATUS,
        address: {
          line_1: "307 W 5TH ST # 307B",
          line_2: null,
          city: "AUSTIN",
          county: "Travis",
          state: "TX",
          zip: "78701",
        },
        // The responsibility and obligation dates are the taxpayer's, not the permit's.
        dates: NO_DATES,
        details: {
          class: null,
          description: "Comptroller taxpayer 32055985694 (Travis County), location 1",
          type: "MB",
        },
      },
    });
  });

  it("serves a permit of the pull with its location's county by name", () => {
    // rowid 1: 32044786807 | CLARDY VENTURES II, LLC | TX | 61 | 1 | FUZZYS TACO SHOP | 10101 SLIDE RD STE 100 |
    //   LUBBOCK | TX | 79424 | 152 | RM789665 | 2025-10-22 16:21:04
    expect(records.get("RM789665")).toEqual({
      path: PULLED,
      asOf: "2025-10-22",
      record: {
        license: "RM789665",
        business: "FUZZYS TACO SHOP",
        owner: "CLARDY VENTURES II, LLC",
        phone: null,
        state: "tx",
        status: TX_STATUS,
        address: {
          line_1: "10101 SLIDE RD STE 100",
          line_2: null,
          city: "LUBBOCK",
          county: "Lubbock",
          state: "TX",
          zip: "79424",
        },
        dates: NO_DATES,
        details: {
          class: null,
          description: "Comptroller taxpayer 32044786807 (Denton County), location 1",
          type: "RM",
        },
      },
    });
  });

  it("writes a private club's padded number without its space, and counts it", () => {
    // rowid 8: 12631253924 | CHAPARRITO'S PRIVATE CLUB INC. | TX | 57 | 1 | CHAPARRITO'S RESTAURANT | 13531 MONTFORT DR |
    //   DALLAS | TX | 75240 | 57 | N 711376 | 2025-10-22 16:21:04
    expect(records.get("N711376")).toEqual({
      path: PULLED,
      asOf: "2025-10-22",
      record: {
        license: "N711376",
        business: "CHAPARRITO'S RESTAURANT",
        owner: "CHAPARRITO'S PRIVATE CLUB INC.",
        phone: null,
        state: "tx",
        status: TX_STATUS,
        address: {
          line_1: "13531 MONTFORT DR",
          line_2: null,
          city: "DALLAS",
          county: "Dallas",
          state: "TX",
          zip: "75240",
        },
        dates: NO_DATES,
        details: {
          class: null,
          description: "Comptroller taxpayer 12631253924 (Dallas County), location 1",
          type: "N",
        },
      },
    });
    expect(records.has("N 711376")).toBe(false);
    expect(tally(pulled.repairs)).toEqual([[TX_REPAIRS.paddedType, 427, [8, 9, 11, 15, 18]]]);
    expect(served.filter((r) => r.license.includes(" "))).toEqual([]);
    // D 953701 and the other distillers' permits the same way.
    expect(records.get("D953701")!.record.details.type).toBe("D");
  });

  it("keeps the first of a permit's rows that name other taxpayers: the rows carry no month to order them by", () => {
    // rowid 127: 17524461674 | OUTBACK BEVERAGES OF TEXAS, LLC | FL | 0 | 29 | OUTBACK STEAKHOUSE | ... | MB225965
    // rowid 1410: 17603461876 | BILLABONG BEVERAGE COMPANY, INC. | TX | 227 | 1 | OUTBACK STEAKHOUSE | ... | MB225965
    expect(records.get("MB225965")!.record).toMatchObject({
      owner: "OUTBACK BEVERAGES OF TEXAS, LLC",
      details: { description: "Comptroller taxpayer 17524461674 (FL), location 29" },
    });
    expect(
      pulled.skips
        .list()
        .find((s) => s.reason === CONFLICT)!
        .examples.map((e) => e.line),
    ).toContain(1410);
    // rowid 173: a taxpayer without a state or county: no place is named.
    expect(records.get("MB547027")!.record.details.description).toBe("Comptroller taxpayer 17528891025, location 1");
  });

  it("keeps every permit number as written: 5 to 9 digits, none a spreadsheet rewrote", () => {
    expect(records.get("MB99255")!.record.owner).toBe("ABILENE COUNTRY CLUB");
    expect(records.get("RM1000660")!.record.business).toBe("PHD");
    expect(records.get("MB200070013")!.record.business).toBe("ROSEWOOD MANSION ON TURTLE CREEK");
    expect(served.filter((r) => !/^[A-Z]{1,2}\d{5,9}$/.test(r.license))).toEqual([]);
  });

  it("finds in the files no name with stray spaces, no line break, and no ZIP outside Texas", () => {
    expect(
      query(
        "SELECT rowid FROM restaurants WHERE taxpayer_name != trim(taxpayer_name) OR location_name != trim(location_name) " +
          "OR instr(location_address || location_name || taxpayer_name, char(10)) > 0",
      ),
    ).toEqual([]);
    expect(readFileSync(EXPORTED, "utf8").split("\n").length).toBe(89);
    expect(served.filter((r) => !/^(7[5-9]\d|733|885)\d{2}$/.test(r.address.zip))).toEqual([]);
    expect(served.filter((r) => r.address.county === "")).toEqual([]);
  });

  it("serves no permit any verdict but check, however fresh the data", async () => {
    const decoding = await loadDecodingTable("tx");
    const verdicts = new Set(
      served.map(
        (record) =>
          licenseVerdict(
            { object: "license", ...record, updated_at: "2026-01-26 00:00:00.000000" },
            { today: "2026-01-26", asOf: "2026-01-25", decoding },
          ).verdict,
      ),
    );
    expect([...verdicts]).toEqual(["check"]);
  });

  it("is found by its content, both files, and claimed by no other source", async () => {
    const folder = temp.path("tx");
    mkdirSync(folder);
    copyFileSync(PULLED, `${folder}/dev_tabc_restaurants.db`);
    copyFileSync(EXPORTED, `${folder}/Mixed_Beverage_Gross_Receipts_20260125.csv`);
    const found = await findSources(folder);
    expect(found.bySource.map((s) => [s.adapter.name, s.paths.length])).toEqual([["tx-cpa", 2]]);
    expect([found.unusable, found.unknown]).toEqual([[], []]);
  });
});

describe("tx-cpa, hand-made files", () => {
  const header = readFileSync(EXPORTED, "utf8").split(/\r?\n/, 1)[0]!;

  it("dates an export whose name holds no day by nothing it can trust", async () => {
    const file = temp.path("receipts.csv");
    writeFileSync(
      file,
      `${header}\n"1","A LLC","1 ST","AUSTIN","TX","78701","227","1","A BAR","1 ST","AUSTIN","TX","7870","227","Y","MB1","","","","$0","$0","$0","$0","$0"\n`,
    );
    const { records, files } = await readAll(txCpa, [file]);
    expect([files[0]!.asOf, files[0]!.asOfFrom]).toEqual([null, "not known"]);
    // A ZIP cut to four digits is left empty, the permit kept.
    expect(records.get("MB1")!.record.address.zip).toBe("");
  });

  it("refuses a database without the Comptroller's table", async () => {
    const other = temp.path("other.db");
    const db = new Database(other);
    db.exec("CREATE TABLE licenses (license_number TEXT)");
    db.close();
    await expect(txCpa.inspect(sourceFile(other))).rejects.toThrow(UnknownLayoutError);
  });
});
