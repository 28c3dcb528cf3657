import { readFileSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { nySla } from "./adapter.ts";
import { SourceFileError } from "../source-adapter.ts";
import { sourceFile } from "../readers/source-file.ts";
import { readAll, sharedData, tempFolder } from "../adapter-test-helpers.ts";

const ACTIVE = sharedData("ny/nyc_bars.csv");
const APPLICATIONS = sharedData("ny/NYS_Liquor_Authority_New_Applications_Received.csv");
const temp = tempFolder();
afterAll(() => temp.done());

const AGENCY_HEADER =
  "License Serial Number,License Type Name,License Class Code,License Type Code,Agency Zone Office Name," +
  "Agency Zone Office Number,County Name (Licensee),Premises Name,Doing Business As (DBA)," +
  "Actual Address of Premises (Address1),Additional Address Information (Address2),City,State,Zip," +
  "License Certificate Number,License Original Issue Date,License Effective Date,License Expiration Date," +
  "Latitude,Longitude,Location";

describe("ny-sla, the SLA list of active licenses (nyc_bars.csv, R-style headers)", async () => {
  const { records, skips, outcomes } = await readAll(nySla, [ACTIVE]);

  it("reads every row; two licenses appear twice", () => {
    expect(outcomes).toBe(6659);
    expect(skips).toEqual([]);
    expect(records.size).toBe(6657);
  });

  it("maps a row with an address line 2 field by field", () => {
    // 1275754,"ON-PREMISES LIQUOR",252,"OP","New York City",1,"QUEENS","TEMPO LIBERO BAR CORP","","88-08 ROOSEVELT AVE",
    // "1ST FLOOR","JACKSON HEIGHTS","NY",11372,810622,"03/25/2014","03/25/2014","02/28/2016",...
    expect(records.get("1275754")).toEqual({
      at: { file: "nyc_bars.csv", line: 2 },
      rows: 1,
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
        dates: { effective: "2014-03-25", expires: "2016-02-28", issued_original: "2014-03-25", issued_latest: null },
        details: { class: "252", description: "ON-PREMISES LIQUOR", type: "OP" },
      },
    });
  });

  it("takes the DBA as the business and the premises name as the owner", () => {
    const rabbit = records.get("1268007")!.record;
    expect([rabbit.business, rabbit.owner]).toEqual(["DEAD RABBIT TAVERN", "DRT GROUP LLC"]);
    expect(rabbit.dates).toMatchObject({ issued_original: "2013-01-30", expires: "2016-12-31" });
  });

  it("leaves an original issue date the agency left blank as null", () => {
    // 1105842,...,"MORELAND INC","SIBERIA SOUTH",...,"","09/04/2014","07/31/2016"
    expect(records.get("1105842")!.record.dates).toEqual({
      effective: "2014-09-04",
      expires: "2016-07-31",
      issued_original: null,
      issued_latest: null,
    });
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
  const { records, skips, outcomes } = await readAll(nySla, [APPLICATIONS]);

  it("reads every row as a pending record, skipping the two whose address columns are shifted", () => {
    expect(outcomes).toBe(1676);
    expect(skips).toEqual([
      { at: { file: APPLICATIONS.split("/").at(-1), line: 813 }, skip: "address state is not a two-letter code" },
      { at: { file: APPLICATIONS.split("/").at(-1), line: 1610 }, skip: "address state is not a two-letter code" },
    ]);
    expect([...records.values()].every((r) => r.record.status === "pending")).toBe(true);
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
      dates: { effective: "2020-01-10", expires: null, issued_original: null, issued_latest: null },
      details: { class: "241", description: "RESTAURANT LIQUOR", type: "RL" },
    });
  });

  it("trims the space padding of city names and keeps an out-of-state applicant's state", () => {
    expect(records.get("2190825")!.record.address.city).toBe("ALBANY");
    const outOfState = [...records.values()].filter((r) => r.record.address.state === "CA");
    expect(outOfState.length).toBe(52);
  });
});

describe("ny-sla, hand-made files", () => {
  const header = AGENCY_HEADER;
  const row = (license: string, fields: { issued?: string; state?: string } = {}) =>
    `${license},ON-PREMISES LIQUOR,252,OP,New York City,1,KINGS,SOME BAR LLC,SOME BAR,1 MAIN ST,,BROOKLYN,` +
    `${fields.state ?? "NY"},11201,800000,${fields.issued ?? "01/02/2010"},01/01/2015,12/31/2016,40.7,-73.9,"(40.7, -73.9)"`;

  it("skips each kind of bad row with its reason and line, and reads the rest, leading zeros kept", async () => {
    const file = temp.path("bad-rows.csv");
    writeFileSync(
      file,
      [
        header,
        row("0012345"),
        row(""),
        row("1000002", { issued: "13/45/2010" }),
        "1000003,too,few,columns",
        row("1000004", { state: "11" }),
        row("1000005"),
        '1000006,"ON-PREMISES LIQUOR,252',
      ].join("\n"),
    );
    const { records, skips } = await readAll(nySla, [file]);
    expect([...records.keys()]).toEqual(["0012345", "1000005"]);
    expect(skips.map((s) => [s.at.line, s.skip])).toEqual([
      [3, "no license number"],
      [4, "unreadable original issue date"],
      [5, "wrong number of columns (4, the header has 21)"],
      [6, "address state is not a two-letter code"],
      [8, "unparseable CSV (a quote is never closed)"],
    ]);
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
