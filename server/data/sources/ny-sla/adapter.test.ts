import { readFileSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { NY_REPAIRS, nySla } from "./adapter.ts";
import { ZIP_REPAIRS } from "../../import/fields.ts";
import { SourceFileError } from "../source-adapter.ts";
import { sourceFile } from "../../readers/source-file.ts";
import { datesOf, readAll, sharedData, tempFolder } from "../../../testing/adapter-test-helpers.ts";
import { nyCurrentCsv, realRecords } from "../../../testing/agency-files.ts";

const ACTIVE = sharedData("ny/nyc_bars.csv");
const APPLICATIONS = sharedData("ny/NYS_Liquor_Authority_New_Applications_Received.csv");
const STATEWIDE = sharedData("ny/itoschum_liquor.csv");
const temp = tempFolder();
afterAll(() => temp.done());

const AGENCY_HEADER =
  "License Serial Number,License Type Name,License Class Code,License Type Code,Agency Zone Office Name," +
  "Agency Zone Office Number,County Name (Licensee),Premises Name,Doing Business As (DBA)," +
  "Actual Address of Premises (Address1),Additional Address Information (Address2),City,State,Zip," +
  "License Certificate Number,License Original Issue Date,License Effective Date,License Expiration Date," +
  "Latitude,Longitude,Location";

type Read = Awaited<ReturnType<typeof readAll>>;

/** The line of the file a license's served record was read from. */
function lineOf(read: Read, license: string): number | undefined {
  const served = read.records.get(license);
  const file = read.files.find((f) => f.path === served?.path);
  return file?.observations.find((o) => o.license === license)?.line;
}

/** The repairs of one file as reason, count and the lines of the first few. */
function repairsOf(read: Read, file = 0) {
  return read.files[file]!.repairs.list().map((r) => [r.reason, r.count, r.examples.map((e) => e.line)]);
}

describe("ny-sla, the SLA list of active licenses (nyc_bars.csv, R-style headers)", async () => {
  const read = await readAll(nySla, [ACTIVE]);
  const { records, skips, outcomes } = read;

  it("reads every row; two licenses listed twice with the same facts are counted once", () => {
    expect(outcomes).toBe(6659);
    expect(records.size).toBe(6657);
    // 1274868 and 1275957 repeat with only their map coordinates (not imported) nudged.
    expect(skips).toEqual([
      { at: { file: "nyc_bars.csv", line: 4528 }, skip: expect.stringContaining("repeated row") },
      { at: { file: "nyc_bars.csv", line: 4910 }, skip: expect.stringContaining("repeated row") },
    ]);
  });

  it("maps a row with an address line 2 field by field, dated by the list", () => {
    // 1275754,"ON-PREMISES LIQUOR",252,"OP","New York City",1,"QUEENS","TEMPO LIBERO BAR CORP","","88-08 ROOSEVELT AVE",
    // "1ST FLOOR","JACKSON HEIGHTS","NY",11372,810622,"03/25/2014","03/25/2014","02/28/2016",...
    expect(records.get("1275754")).toEqual({
      path: ACTIVE,
      // The list states no date: its newest original issue date stands for it.
      asOf: "2016-01-14",
      record: {
        license: "1275754",
        business: "TEMPO LIBERO BAR CORP",
        owner: "TEMPO LIBERO BAR CORP",
        phone: null,
        state: "ny",
        status: "active",
        address: {
          line_1: "88-08 ROOSEVELT AVE",
          line_2: "1ST FLOOR",
          city: "JACKSON HEIGHTS",
          county: "QUEENS",
          state: "NY",
          zip: "11372",
        },
        dates: {
          ny: { effective: "2014-03-25", expires: "2016-02-28", issued_original: "2014-03-25", issued_latest: null },
        },
        details: { class: "252", description: "ON-PREMISES LIQUOR", type: "OP" },
      },
    });
    expect(lineOf(read, "1275754")).toBe(2);
    expect(read.files[0]!.asOfFrom).toBe("the newest date in the file");
  });

  it("takes the DBA as the business and the premises name as the owner", () => {
    const rabbit = records.get("1268007")!.record;
    expect([rabbit.business, rabbit.owner]).toEqual(["DEAD RABBIT TAVERN", "DRT GROUP LLC"]);
    expect(datesOf(rabbit)).toMatchObject({ issued_original: "2013-01-30", expires: "2016-12-31" });
  });

  it("leaves an original issue date the agency left blank as null", () => {
    // 1105842,...,"MORELAND INC","SIBERIA SOUTH",...,"","09/04/2014","07/31/2016"
    expect(datesOf(records.get("1105842")!.record)).toEqual({
      effective: "2014-09-04",
      expires: "2016-07-31",
      issued_original: null,
      issued_latest: null,
    });
  });

  it("writes a nine-digit ZIP as ZIP+4 (20 rows)", () => {
    // 1028290,...,"NY",100168132,...
    expect(records.get("1028290")!.record.address.zip).toBe("10016-8132");
    expect([...records.values()].filter((r) => /^\d{5}-\d{4}$/.test(r.record.address.zip))).toHaveLength(20);
  });

  it("leaves a ZIP no one can read empty, and says so, rather than serving a wrong one", () => {
    // 1012213 (SALTY DOG, Brooklyn): 112209; 1255998 (739 FRANKLIN, Brooklyn): 1238.
    expect(records.get("1012213")!.record.address).toMatchObject({ city: "BROOKLYN", state: "NY", zip: "" });
    expect(records.get("1255998")!.record.address).toMatchObject({ city: "BROOKLYN", state: "NY", zip: "" });
    expect(repairsOf(read)).toEqual([[ZIP_REPAIRS.unusable, 2, [3610, 4061]]]);
  });

  it("reads the same data under the agency's original header names", async () => {
    const text = readFileSync(ACTIVE, "utf8");
    const renamed = temp.path("active-agency-headers.csv");
    writeFileSync(renamed, `${AGENCY_HEADER}${text.slice(text.indexOf("\n"))}`);
    expect((await nySla.inspect(sourceFile(renamed))).layout).toBe("SLA list of active licenses");
    const again = await readAll(nySla, [renamed]);
    expect(again.outcomes).toBe(6659);
    expect(again.records.get("1275754")!.record).toEqual(records.get("1275754")!.record);
  }, 20_000);
});

describe("ny-sla, the SLA new applications list", async () => {
  const read = await readAll(nySla, [APPLICATIONS]);
  const { records, skips, outcomes } = read;

  it("reads every row as a pending record, none skipped", () => {
    expect(outcomes).toBe(1676);
    expect(skips).toEqual([]);
    expect(records.size).toBe(1676);
    expect([...records.values()].every((r) => r.record.status === "pending")).toBe(true);
    expect(records.get("2500672")).toMatchObject({ path: APPLICATIONS, asOf: "2020-02-04" });
  });

  it("joins a ZIP the agency split across State and ZIP, and takes the state as NY", () => {
    // 1323962,ON-PREMISES LIQUOR,...,QUEENS,420 B 129 CORP,PLUM TOMATOES BY LA SORRENTINA,420 BEACH 129TH ST,,BELLE HARBOR,11,694,,12/06/2019
    const plum = records.get("1323962")!.record;
    expect([plum.business, plum.owner]).toEqual(["PLUM TOMATOES BY LA SORRENTINA", "420 B 129 CORP"]);
    expect(plum.address).toEqual({
      line_1: "420 BEACH 129TH ST",
      line_2: null,
      city: "BELLE HARBOR",
      county: "QUEENS",
      state: "NY",
      zip: "11694",
    });
    // 3164784,GROCERY BEER, WINE PROD,...,M & A CONVENIENCE,1364 DEWEY AVE,,ROCHESTER   ,14,613,,01/30/2020
    expect(records.get("3164784")!.record).toMatchObject({
      business: "M & A CONVENIENCE",
      address: { city: "ROCHESTER", county: "MONROE", state: "NY", zip: "14613" },
    });
    expect(lineOf(read, "1323962")).toBe(813);
    expect(repairsOf(read)).toContainEqual([NY_REPAIRS.zipSplit, 2, [813, 1610]]);
  });

  it("maps an application field by field: received date as effective, nothing issued yet", () => {
    // 2500672,RESTAURANT LIQUOR,241,RL,2,Albany,BROOME,PATRICK F NANNERY,BRASS RAIL GRILL,180 182 CLINTON ST,,BINGHAMTON,NY,13905,881732,01/10/2020
    expect(records.get("2500672")!.record).toEqual({
      license: "2500672",
      business: "BRASS RAIL GRILL",
      owner: "PATRICK F NANNERY",
      phone: null,
      state: "ny",
      status: "pending",
      address: {
        line_1: "180 182 CLINTON ST",
        line_2: null,
        city: "BINGHAMTON",
        county: "BROOME",
        state: "NY",
        zip: "13905",
      },
      dates: { ny: { effective: "2020-01-10", expires: null, issued_original: null, issued_latest: null } },
      details: { class: "241", description: "RESTAURANT LIQUOR", type: "RL" },
    });
  });

  it("keeps an out-of-state shipper's state, without the New York county the SLA files it under", () => {
    expect(records.get("2190825")!.record.address.city).toBe("ALBANY");
    // 2219440,DIRECT WINE SHIPMENT,...,ALBANY,...,5565 TESLA RD,,LIVERMORE,CA,94550
    expect(records.get("2219440")!.record.address).toMatchObject({ city: "LIVERMORE", county: "", state: "CA" });
    const outOfState = [...records.values()].filter((r) => r.record.address.state !== "NY");
    expect(outOfState).toHaveLength(68);
    expect(outOfState.filter((r) => r.record.address.state === "CA")).toHaveLength(54);
    expect(outOfState.every((r) => r.record.address.county === "")).toBe(true);
  });

  it("takes the state from the ZIP where a California winery is marked NY", () => {
    // 2219335,DIRECT WINE SHIPMENT,...,MS WINES LLC,MARTHA STOUMEN,5230 MCFARLANE RD,,SEBASTOPOL,NY,95472
    expect(records.get("2219335")!.record.address).toMatchObject({ city: "SEBASTOPOL", state: "CA", zip: "95472" });
    expect(records.get("2220516")!.record.address).toMatchObject({ city: "SANTA MARIA", state: "CA", zip: "93455" });
    expect(repairsOf(read)).toContainEqual([NY_REPAIRS.stateFromZip, 2, [159, 1489]]);
  });

  it("leaves a ZIP of the wrong length empty, and says so", () => {
    // 1322709: 112211; 1324162 (NORTHPORT): 1768; 1324919: 1234.
    for (const license of ["1322709", "1324162", "1324919"]) {
      expect(records.get(license)!.record.address.zip).toBe("");
    }
    expect(repairsOf(read)).toContainEqual([ZIP_REPAIRS.unusable, 3, [132, 950, 1351]]);
  });
});

describe("ny-sla, the 2016 list and the 2019-20 applications together", async () => {
  const inOrder = await readAll(nySla, [ACTIVE, APPLICATIONS]);
  const reversed = await readAll(nySla, [APPLICATIONS, ACTIVE]);

  it("serves the newer application's facts whichever file is read first", () => {
    for (const read of [inOrder, reversed]) {
      const daisy = read.records.get("1189562")!;
      expect(daisy.record.business).toBe("PAPER DAISY");
      expect(daisy.record.status).toBe("pending");
      expect(daisy.path).toBe(APPLICATIONS);
      expect(lineOf(read, "1189562")).toBe(20);
    }
    expect(inOrder.records.size).toBe(6657 + 1676 - 6);
  });

  it("dates each record by its own file: 2016 records by the 2016 list, applications by theirs", () => {
    for (const read of [inOrder, reversed]) {
      expect(read.records.get("1275754")).toMatchObject({ path: ACTIVE, asOf: "2016-01-14" });
      expect(read.records.get("1189562")).toMatchObject({ path: APPLICATIONS, asOf: "2020-02-04" });
      const asOfs = new Set([...read.records.values()].map((r) => `${r.path === ACTIVE}:${r.asOf}`));
      expect(asOfs).toEqual(new Set(["true:2016-01-14", "false:2020-02-04"]));
    }
  });
});

describe("ny-sla, the 2019 statewide extract of the active list (itoschum_liquor.csv)", async () => {
  const read = await readAll(nySla, [STATEWIDE]);
  const file = read.files[0]!;

  it("reads every row as a license: no repeats, blanks, padded names or shortened serials in it", () => {
    expect(read.outcomes).toBe(18340);
    expect(read.skips).toEqual([]);
    expect(file.repairs.list()).toEqual([]);
    expect(read.records.size).toBe(18340);
    expect([...read.records.keys()].every((serial) => /^\d{7}$/.test(serial))).toBe(true);
    expect([...read.records.values()].every(({ record }) => record.business === record.business.trim())).toBe(true);
  });

  it("is a partial list of the active-list family, dated by its newest original issue date", async () => {
    const inspection = await nySla.inspect(sourceFile(STATEWIDE));
    expect(inspection).toMatchObject({ family: "ny-sla: active licenses", partial: true });
    expect([file.asOf, file.asOfFrom]).toEqual(["2019-07-30", "the newest date in the file"]);
    expect(file.coverage).toBe(
      "active licenses of 57 classes, statewide, with no address (an extract of the SLA's list that left out licenses without a trade name)",
    );
  });

  it("maps an upstate license field by field, with no address, type or type name to give", () => {
    // 1050302,122,F & E SUPERMARKET INC,EMERALD FOOD STORE,903270,10/27/1981,07/30/2018,06/30/2021
    expect(read.records.get("1050302")).toEqual({
      path: STATEWIDE,
      asOf: "2019-07-30",
      record: {
        license: "1050302",
        business: "EMERALD FOOD STORE",
        owner: "F & E SUPERMARKET INC",
        phone: null,
        state: "ny",
        status: "active",
        address: { line_1: "", line_2: null, city: "", county: "", state: "NY", zip: "" },
        dates: {
          ny: { effective: "2018-07-30", expires: "2021-06-30", issued_original: "1981-10-27", issued_latest: null },
        },
        details: { class: "122", description: null, type: "" },
      },
    });
  });

  it("keeps a trade name that begins with a number, as the SLA writes it", () => {
    // 1014784,...,VALLEY STREAM CONVENIENCE STORE INC,7 ELEVEN STORE #22413C,...
    // 1211475,240,WORLD YACHT LLC,MOTORIZED VESSEL DESTINY,887485,10/22/2008,09/07/2018,09/30/2020
    expect(read.records.get("1014784")!.record.business).toBe("7 ELEVEN STORE #22413C");
    const yacht = read.records.get("1211475")!.record;
    expect([yacht.business, yacht.owner, yacht.details.class]).toEqual([
      "MOTORIZED VESSEL DESTINY",
      "WORLD YACHT LLC",
      "240",
    ]);
    expect(datesOf(yacht)).toEqual({
      effective: "2018-09-07",
      expires: "2020-09-30",
      issued_original: "2008-10-22",
      issued_latest: null,
    });
  });
});

describe("ny-sla, New York's three sources: the 2016 NYC list, the 2019 statewide extract, the 2019-20 applications", async () => {
  const reads = [
    await readAll(nySla, [ACTIVE, STATEWIDE, APPLICATIONS]),
    await readAll(nySla, [APPLICATIONS, STATEWIDE, ACTIVE]),
  ];

  it("serves every license any of them names, in whichever order they are read", () => {
    // 6,657 in 2016 and 18,340 in 2019, 3,396 in both; 1,676 applications, 17 of them for a serial the extract lists (6 of those also in 2016).
    for (const read of reads) expect(read.records.size).toBe(6657 + 18340 - 3396 + 1676 - 17 - 6 + 6);
    const serials = (read: (typeof reads)[number]) => [...read.records.keys()].sort();
    expect(serials(reads[1]!)).toEqual(serials(reads[0]!));
  });

  it("Dead Rabbit Tavern keeps its 2016 address and takes the 2019 list's dates", () => {
    // nyc_bars.csv: 1268007,"ON-PREMISES LIQUOR",252,"OP",...,"NEW YORK","DRT GROUP LLC","DEAD RABBIT TAVERN","30 WATER STREET","",
    //   "NEW YORK","NY",10004,846180,"01/30/2013","01/01/2015","12/31/2016",...
    // itoschum_liquor.csv: 1268007,252,DRT GROUP LLC,DEAD RABBIT TAVERN,900286,01/30/2013,01/01/2019,12/31/2020
    for (const read of reads) {
      expect(read.records.get("1268007")).toEqual({
        path: STATEWIDE,
        asOf: "2019-07-30",
        record: {
          license: "1268007",
          business: "DEAD RABBIT TAVERN",
          owner: "DRT GROUP LLC",
          phone: null,
          state: "ny",
          status: "active",
          address: {
            line_1: "30 WATER STREET",
            line_2: null,
            city: "NEW YORK",
            county: "NEW YORK",
            state: "NY",
            zip: "10004",
          },
          dates: {
            ny: { effective: "2019-01-01", expires: "2020-12-31", issued_original: "2013-01-30", issued_latest: null },
          },
          details: { class: "252", description: "ON-PREMISES LIQUOR", type: "OP" },
        },
      });
    }
  });

  it("its history shows what changed between the lists, and no change of address", () => {
    for (const read of reads) {
      const [active, statewide] = [ACTIVE, STATEWIDE].map((path) => read.files.findIndex((f) => f.path === path) + 1);
      expect(read.histories.get("1268007")!.entries).toEqual([
        {
          event: "changed",
          date: "2019-07-30",
          since: "2016-01-14",
          source: statewide,
          changes: [
            { field: "effective", license_type: null, from: "2015-01-01", to: "2019-01-01" },
            { field: "expires", license_type: null, from: "2016-12-31", to: "2020-12-31" },
          ],
        },
        { event: "first_seen", date: "2016-01-14", since: null, source: active, changes: [] },
      ]);
    }
  });

  it("a 2016 license the extract leaves out is still served from the 2016 list, with no 'no longer listed'", () => {
    // 1275754 (TEMPO LIBERO BAR CORP, no trade name) is not in the extract, which dropped rows with a blank.
    for (const read of reads) {
      expect(read.records.get("1275754")).toMatchObject({ path: ACTIVE, asOf: "2016-01-14" });
      expect(read.histories.get("1275754")!.entries.map((e) => e.event)).toEqual(["first_seen"]);
    }
  });

  it("an application received after the extract is the record: THE FAT RADISH is pending", () => {
    // itoschum_liquor.csv: 1243517,252,SILKSTONEONE LLC,THE FAT RADISH,897767,10/04/2010,10/01/2018,09/30/2020
    for (const read of reads) {
      const radish = read.records.get("1243517")!;
      expect(radish).toMatchObject({ path: APPLICATIONS, asOf: "2020-02-04" });
      expect([radish.record.business, radish.record.status, radish.record.address.line_1]).toEqual([
        "THE FAT RADISH",
        "pending",
        expect.stringMatching(/\S/),
      ]);
    }
  });
});

describe("ny-sla, hand-made files", () => {
  const header = AGENCY_HEADER;
  const row = (license: string, fields: { issued?: string; state?: string; zip?: string; dba?: string } = {}) =>
    `${license},ON-PREMISES LIQUOR,252,OP,New York City,1,KINGS,SOME BAR LLC,${fields.dba ?? "SOME BAR"},1 MAIN ST,,BROOKLYN,` +
    `${fields.state ?? "NY"},${fields.zip ?? "11201"},800000,${fields.issued ?? "01/02/2010"},01/01/2015,12/31/2016,40.7,-73.9,"(40.7, -73.9)"`;

  it("skips only rows without a number or that cannot be read, with reason and line; leading zeros kept", async () => {
    const file = temp.path("bad-rows.csv");
    writeFileSync(
      file,
      [
        header,
        row("0012345"),
        row(""),
        "1000003,too,few,columns",
        row("1000005"),
        '1000006,"ON-PREMISES LIQUOR,252',
      ].join("\n"),
    );
    const { records, skips } = await readAll(nySla, [file]);
    expect([...records.keys()]).toEqual(["0012345", "1000005"]);
    expect(skips.map((s) => [s.at.line, s.skip]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([
      [3, "no license number"],
      [4, "wrong number of columns (4, the header has 21)"],
      [6, "unparseable CSV (a quote is never closed)"],
    ]);
  });

  it("never drops a license whose number and names are intact: a bad address part or date is left empty", async () => {
    const file = temp.path("mendable-rows.csv");
    writeFileSync(
      file,
      [
        header,
        row("2000001", { state: "11", zip: "201" }),
        row("2000002", { state: "11" }),
        row("2000003", { state: "" }),
        row("2000004", { zip: "1120" }),
        row("2000005", { zip: "ABCDE" }),
        row("2000006", { issued: "13/45/2010" }),
        row("2000007", { state: "NY", zip: "94558" }),
      ].join("\n"),
    );
    const read = await readAll(nySla, [file]);
    expect(read.skips).toEqual([]);
    const address = (license: string) => {
      const { state, zip, county } = read.records.get(license)!.record.address;
      return [state, zip, county];
    };
    expect(address("2000001")).toEqual(["NY", "11201", "KINGS"]);
    expect(address("2000002")).toEqual(["NY", "11201", "KINGS"]);
    expect(address("2000003")).toEqual(["NY", "11201", "KINGS"]);
    expect(address("2000004")).toEqual(["NY", "", "KINGS"]);
    expect(address("2000005")).toEqual(["NY", "", "KINGS"]);
    expect(address("2000007")).toEqual(["CA", "94558", ""]);
    expect(datesOf(read.records.get("2000006")!.record).issued_original).toBeNull();
    expect(Object.fromEntries(read.files[0]!.repairs.list().map((r) => [r.reason, r.count]))).toEqual({
      [NY_REPAIRS.zipSplit]: 1,
      [NY_REPAIRS.noState]: 2,
      [ZIP_REPAIRS.unusable]: 2,
      "unreadable original issue date: left empty": 1,
      [NY_REPAIRS.stateFromZip]: 1,
      [NY_REPAIRS.outOfStateCounty]: 1,
    });
  });

  it("refuses a file of an unknown layout, naming it and the columns it expected", async () => {
    const file = temp.path("not-sla.csv");
    writeFileSync(file, "Permit,Name,Street\nMB1,ODD DUCK,1201 S LAMAR\n");
    const error = await nySla.inspect(sourceFile(file)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceFileError);
    expect((error as Error).message).toContain(`${file}: unknown layout`);
    expect((error as Error).message).toContain("SLA list of active licenses: needs columns License Serial Number");
    expect((error as Error).message).toContain("Found: Permit, Name, Street");
  });
});

describe("ny-sla, data.ny.gov's current active list (9s3h-dpkz), a layout we hold no real file of", () => {
  it("reads our real records written in that layout as they were, less the second address line it has no column for", async () => {
    const real = await realRecords("ny-sla", "ny/nyc_bars.csv");
    const path = temp.path("9s3h-dpkz.csv");
    writeFileSync(path, nyCurrentCsv(real));
    const read = await readAll(nySla, [path]);
    expect(read.files[0]!.skips.list()).toEqual([]);
    expect(read.records.size).toBe(real.length);
    for (const record of real) {
      expect(read.records.get(record.license)?.record).toEqual({
        ...record,
        address: { ...record.address, line_2: null },
      });
    }
    expect((await nySla.inspect(sourceFile(path))).layout).toBe("SLA current active licenses (data.ny.gov 9s3h-dpkz)");
  });
});
