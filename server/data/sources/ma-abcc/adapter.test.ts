import { readFileSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { MA_REPAIRS, maAbcc } from "./adapter.ts";
import { ZIP_REPAIRS } from "../../import/fields.ts";
import { SourceFileError } from "../source-adapter.ts";
import { sourceFile } from "../../readers/source-file.ts";
import { datesOf, readAll, sharedData, tempFolder } from "../../../testing/adapter-test-helpers.ts";
import { csvHead, maRetailXls } from "../../../testing/agency-files.ts";

const LIST = sharedData("ma/ma_license_list.csv");
const temp = tempFolder();
afterAll(() => temp.done());

describe("ma-abcc, the ABCC active retail licenses list", async () => {
  const read = await readAll(maAbcc, [LIST]);
  const { records, skips, outcomes } = read;
  const repairs = () => read.files[0]!.repairs.list().map((r) => [r.reason, r.count, r.examples.map((e) => e.line)]);
  const zipOf = (license: string) => records.get(license)!.record.address.zip;

  it("reads every row as a license", () => {
    expect(outcomes).toBe(12471);
    expect(skips).toEqual([]);
    expect(records.size).toBe(12471);
  });

  it("keeps leading zeros, joins the street number back on, reads Excel serial dates", () => {
    // 00011-CL-0002,Columbus Club Of Abington Inc,Corporation,On Premise Retail,Issued,46387.0,Active,ABINGTON,
    // William Sampson,KNIGHTS OF COLUMBUS,,All Alcoholic Beverages,,Club,Annual,,,,25946.0,No,,,254,Hancock Street,,Abington,MA,02351,...
    expect(read.files[0]!.observations.find((o) => o.license === "00011-CL-0002")!.line).toBe(2);
    expect(records.get("00011-CL-0002")).toEqual({
      path: LIST,
      // The list states no date: its newest issue date stands for it.
      asOf: "2026-03-20",
      record: {
        license: "00011-CL-0002",
        business: "KNIGHTS OF COLUMBUS",
        owner: "Columbus Club Of Abington Inc",
        phone: null,
        state: "ma",
        status: "active",
        address: {
          line_1: "254 Hancock Street",
          line_2: null,
          city: "Abington",
          county: "",
          state: "MA",
          zip: "02351",
        },
        dates: {
          ma: { effective: null, expires: "2026-12-31", issued_original: "1971-01-13", issued_latest: null },
        },
        details: { class: "Annual", description: "Club, All Alcoholic Beverages", type: "CL" },
      },
    });
  });

  it("keeps ADDRESS2 as the second address line, and the licensee as business when there is no DBA", () => {
    // 00021-VC-0002,Lewis V Dorsey Post 112 Am Leg Abington Inc,...,Charles F Whitman,,,...,1027,Washington Street,P O Box 2016,Abington,MA,02351
    const post = records.get("00021-VC-0002")!.record;
    expect(post.address).toEqual({
      line_1: "1027 Washington Street",
      line_2: "P O Box 2016",
      city: "Abington",
      county: "",
      state: "MA",
      zip: "02351",
    });
    expect([post.business, post.owner]).toEqual([
      "Lewis V Dorsey Post 112 Am Leg Abington Inc",
      "Lewis V Dorsey Post 112 Am Leg Abington Inc",
    ]);
  });

  it("describes an off-premises license by its type and category", () => {
    // 00024-PK-0002,R F Owens Co Inc,...,Off Premise Retail,...,TRUCCHIS SUPERMARKET,Wines and Malt,,Package Store,,...,27655.0
    const store = records.get("00024-PK-0002")!.record;
    expect(store.details).toEqual({ class: "Annual", description: "Package Store, Wines and Malt", type: "PK" });
    expect(datesOf(store).issued_original).toBe("1975-09-18");
  });

  it("serves MA where the STATE column has a typo, and counts each as a repair", () => {
    // 07216-RS-0070 ...,575,Main Street,,Barnstable,M,02601; 08826-RS-1086 ...,Scituate,MQA,02066; 07665-RS-1344 ...,Wellesley,STREET,02482
    for (const license of ["07216-RS-0070", "08826-RS-1086", "07665-RS-1344", "00058-RS-0264"]) {
      expect(records.get(license)!.record.address.state).toBe("MA");
    }
    expect(repairs()).toContainEqual([MA_REPAIRS.state, 13, [620, 1965, 3265, 3756, 5984]]);
  });

  it("puts back the leading 0 a spreadsheet dropped from a ZIP", () => {
    // 08776-GP-0908 ...,Norton,MA,2766; 03902-RS-1264 ...,Taunton,MA,2780
    expect([zipOf("08776-GP-0908"), zipOf("03902-RS-1264")]).toEqual(["02766", "02780"]);
    expect(repairs()).toContainEqual([ZIP_REPAIRS.leadingZero, 2, [8287, 10708]]);
  });

  it("leaves empty a ZIP that would send a clerk to the wrong place, and says so", () => {
    // Truncated (0247 Arlington, 0219 Boston) or 6 digits (015404 Blackstone): 7 rows.
    expect([zipOf("00063-RS-0030"), zipOf("06089-RS-0116"), zipOf("03508-RS-0108")]).toEqual(["", "", ""]);
    expect(repairs()).toContainEqual([ZIP_REPAIRS.unusable, 7, [296, 937, 2008, 7258, 7464]]);
    // Digits swapped into another region (20540 Falmouth, 10949 Middleton) or a placeholder (99999 Nantucket): 6 rows.
    expect([zipOf("05439-RS-0390"), zipOf("05528-RS-0704"), zipOf("00011-GP-0762")]).toEqual(["", "", ""]);
    expect(repairs()).toContainEqual([ZIP_REPAIRS.otherState, 6, [4687, 5803, 7210, 7408, 8748]]);
  });

  it("drops a stray letter after a ZIP's five digits, and keeps ZIP+4 and a border town's ZIP", () => {
    // 06403-RS-0640 ...,Lynnfield,MA,01940A; 04695-HT-1478 ...,Williamstown,MA,01267S
    expect([zipOf("06403-RS-0640"), zipOf("04695-HT-1478")]).toEqual(["01940", "01267"]);
    expect(zipOf("00052-CL-0656")).toBe("01945-3637");
    // 00020-RS-0086, Bellingham: a Woonsocket, RI ZIP, as some Bellingham addresses have.
    expect(zipOf("00020-RS-0086")).toBe("02895");
  });
});

describe("ma-abcc, hand-made files", () => {
  const header = readFileSync(LIST, "utf8").split(/\r?\n/, 1)[0]!;
  const row = (license: string, status: string, issued: string) =>
    `${license},Some Inn Inc,Corporation,On Premise Retail,Issued,46387.0,${status},BOSTON,A Manager,THE SOME INN,,` +
    `All Alcoholic Beverages,,Restaurant,Seasonal,,,,${issued},No,,,12,Main Street,,Boston,MA,02108,"",""`;

  it("maps other statuses through its table, keeps an unknown one lower-cased, and never drops a numbered row", async () => {
    const file = temp.path("ma.csv");
    writeFileSync(
      file,
      [
        header,
        row("00001-RS-0116", "Expired", "40862.0"),
        row("00002-RS-0116", "Pending Renewal", "40862.0"),
        row("00003-RS-0116", "", "40862.0"),
        row("00004-RS-0116", "Active", "soon"),
        row("", "Active", "40862.0"),
      ].join("\r\n"),
    );
    const { records, skips, files } = await readAll(maAbcc, [file]);
    expect([...records.values()].map((r) => [r.record.license, r.record.status])).toEqual([
      ["00001-RS-0116", "expired"],
      ["00002-RS-0116", "pending renewal"],
      ["00003-RS-0116", ""],
      ["00004-RS-0116", "active"],
    ]);
    expect(records.get("00001-RS-0116")!.record.details.class).toBe("Seasonal");
    expect(datesOf(records.get("00004-RS-0116")!.record).issued_original).toBeNull();
    expect(skips.map((s) => [s.at.line, s.skip])).toEqual([[6, "no license number"]]);
    expect(files[0]!.repairs.list().map((r) => [r.reason, r.examples.map((e) => e.line)])).toEqual([
      [MA_REPAIRS.noStatus, [4]],
      ["unreadable issue date: left empty", [5]],
    ]);
  });

  it("refuses a file of an unknown layout", async () => {
    const file = temp.path("other.csv");
    writeFileSync(file, "LICENSE,NAME\n1,X\n");
    await expect(maAbcc.inspect(sourceFile(file))).rejects.toThrow(SourceFileError);
    await expect(maAbcc.inspect(sourceFile(file))).rejects.toThrow(
      /other\.csv: unknown layout[\s\S]*needs columns LICENSE_NO/,
    );
  });
});

describe("ma-abcc, the legacy .xls mass.gov publishes", () => {
  it("reads the .xls as it reads our CSV of it", async () => {
    const csv = temp.path("head.csv");
    writeFileSync(csv, csvHead(readFileSync(sharedData("ma/ma_license_list.csv"), "utf8"), 500));
    const xls = temp.path("abcc-active-retail-licenses.xls");
    writeFileSync(xls, await maRetailXls(readFileSync(csv, "utf8")));
    const [fromCsv, fromXls] = [await readAll(maAbcc, [csv]), await readAll(maAbcc, [xls])];
    expect(fromXls.records.size).toBe(500);
    expect([...fromXls.records.values()].map((r) => r.record)).toEqual(
      [...fromCsv.records.values()].map((r) => r.record),
    );
  });
});
