import { readFileSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { maAbcc } from "./adapter.ts";
import { SourceFileError } from "../source-adapter.ts";
import { sourceFile } from "../readers/source-file.ts";
import { readAll, sharedData, tempFolder } from "../adapter-test-helpers.ts";

const LIST = sharedData("ma/ma_license_list.csv");
const temp = tempFolder();
afterAll(() => temp.done());

describe("ma-abcc, the ABCC active retail licenses list", async () => {
  const { records, skips, outcomes } = await readAll(maAbcc, [LIST]);

  it("reads every row as a license", () => {
    expect(outcomes).toBe(12471);
    expect(skips).toEqual([]);
    expect(records.size).toBe(12471);
  });

  it("keeps leading zeros, joins the street number back on, reads Excel serial dates", () => {
    // 00011-CL-0002,Columbus Club Of Abington Inc,Corporation,On Premise Retail,Issued,46387.0,Active,ABINGTON,
    // William Sampson,KNIGHTS OF COLUMBUS,,All Alcoholic Beverages,,Club,Annual,,,,25946.0,No,,,254,Hancock Street,,Abington,MA,02351,...
    expect(records.get("00011-CL-0002")).toEqual({
      at: { file: "ma_license_list.csv", line: 2 },
      rows: 1,
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
        dates: { effective: null, expires: "2026-12-31", issued_original: "1971-01-13", issued_latest: null },
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
    expect(store.dates.issued_original).toBe("1975-09-18");
  });
});

describe("ma-abcc, hand-made files", () => {
  const header = readFileSync(LIST, "utf8").split(/\r?\n/, 1)[0]!;
  const row = (license: string, status: string, issued: string) =>
    `${license},Some Inn Inc,Corporation,On Premise Retail,Issued,46387.0,${status},BOSTON,A Manager,THE SOME INN,,` +
    `All Alcoholic Beverages,,Restaurant,Seasonal,,,,${issued},No,,,12,Main Street,,Boston,MA,02108,"",""`;

  it("maps other statuses through its table, keeps an unknown one lower-cased, and skips bad rows", async () => {
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
    const { records, skips } = await readAll(maAbcc, [file]);
    expect([...records.values()].map((r) => [r.record.license, r.record.status])).toEqual([
      ["00001-RS-0116", "expired"],
      ["00002-RS-0116", "pending renewal"],
    ]);
    expect(records.get("00001-RS-0116")!.record.details.class).toBe("Seasonal");
    expect(skips.map((s) => [s.at.line, s.skip])).toEqual([
      [4, "no status"],
      [5, "unreadable issue date"],
      [6, "no license number"],
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
