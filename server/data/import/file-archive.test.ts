import { createHash } from "node:crypto";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createLicenseRepo } from "../../store/license-repo.ts";
import { openDatabase } from "../../store/open-database.ts";
import { sharedData, tempFolder } from "../../testing/adapter-test-helpers.ts";
import { archiveExtension } from "./file-archive.ts";
import { importSource } from "./import-source.ts";
import { maAbcc } from "../sources/ma-abcc/adapter.ts";

const temp = tempFolder();
afterAll(() => temp.done());

/** The real ABCC list's header and its first five licenses. */
const roster = temp.path("ma-five.csv");
writeFileSync(
  roster,
  readFileSync(sharedData("ma/ma_license_list.csv"), "utf8").split(/\r?\n/).slice(0, 6).join("\n") + "\n",
);
const sha256 = createHash("sha256").update(readFileSync(roster)).digest("hex");

describe("the archive of imported files", () => {
  it("keeps each file as read under its SHA-256, once, and an archived file imports like any other", async () => {
    const archive = temp.path("archive");
    const db = openDatabase(temp.path("first.sqlite"), { create: true });
    const result = await importSource(db, maAbcc, [roster], { asOf: "2026-01-01", archive });
    const kept = join(archive, "ma-abcc", `${sha256}.csv`);
    expect(result.files[0]!.archived).toBe(kept);
    expect(readFileSync(kept)).toEqual(readFileSync(roster));
    expect(createLicenseRepo(db).coverage()[0]!.sources[0]).toMatchObject({ file: "ma-five.csv", sha256 });

    // Imported again (here with --replace, so it is read again): the copy is not written again.
    const written = statSync(kept).mtimeMs;
    await importSource(db, maAbcc, [roster], { asOf: "2026-01-01", archive, replace: true });
    expect(statSync(kept).mtimeMs).toBe(written);
    db.close();

    // The archived copy, imported into another database, makes the same records.
    const again = openDatabase(temp.path("again.sqlite"), { create: true });
    const rerun = await importSource(again, maAbcc, [kept], { asOf: "2026-01-01", archive });
    expect(rerun.records).toBe(5);
    expect(createLicenseRepo(again).get("ma", "00011-CL-0002")).toContain("Columbus Club Of Abington Inc");
    expect(createLicenseRepo(again).coverage()[0]!.sources[0]).toMatchObject({ sha256 });
    again.close();
  });

  it("keeps nothing when not asked to", async () => {
    const db = openDatabase(temp.path("none.sqlite"), { create: true });
    const result = await importSource(db, maAbcc, [roster], { asOf: "2026-01-01" });
    expect(result.files[0]!.archived).toBeNull();
    db.close();
  });

  it("names a copy with the original's extension, so it opens as the original does", () => {
    expect(archiveExtension("/x/ca_reports.TAR.GZ")).toBe(".tar.gz");
    expect(archiveExtension("list.xlsx")).toBe(".xlsx");
    expect(archiveExtension("DistrictABCLicensees4252012.xls")).toBe(".xls");
    expect(archiveExtension("wslcb_data.db")).toBe(".db");
    expect(archiveExtension("export")).toBe("");
  });
});
