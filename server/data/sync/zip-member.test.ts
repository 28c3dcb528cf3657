import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { zipSync } from "fflate";
import { afterAll, describe, expect, it } from "vitest";
import { IncompleteDownload } from "./download-errors.ts";
import { extractMember } from "./zip-member.ts";

const dir = mkdtempSync(join(tmpdir(), "zip-member-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const URL = "https://www.abc.ca.gov/wp-content/uploads/DailyExport-CSV.zip";

function zipFile(name: string, members: Record<string, Uint8Array>, level: 0 | 9 = 9): string {
  const path = join(dir, name);
  writeFileSync(path, zipSync(members, { level }));
  return path;
}

describe("a zip's member", () => {
  it("is written as it is, from any folder of the zip, stored or deflated", async () => {
    const csv = Buffer.from("License Number,Status\n1,ACTIVE\n".repeat(5000));
    for (const level of [0, 9] as const) {
      const zip = zipFile(`good-${level}.zip`, { "README.txt": Buffer.from("x"), "out/data.csv": csv }, level);
      const to = join(dir, `data-${level}.csv`);
      await extractMember(zip, "data.csv", to, { url: URL, maxBytes: 1 << 20 });
      expect(readFileSync(to).equals(csv)).toBe(true);
    }
  });

  it("inflating past the cap is refused in a sentence naming it and the cap, and nothing is left", async () => {
    // 16 MB of zeros in 16 KB: a small bomb; the cap, 1 MB.
    const bomb = zipFile("bomb.zip", { "data.csv": new Uint8Array(16 << 20) });
    const to = join(dir, "bomb.csv");
    const refused = extractMember(bomb, "data.csv", to, { url: URL, maxBytes: 1 << 20 });
    await expect(refused).rejects.toThrow(IncompleteDownload);
    await expect(refused).rejects.toThrow(
      `${URL}: its member data.csv inflates past 1 MB, the most a zip member may hold (SYNC_MAX_UNZIPPED_MB): ` +
        `it was refused unread, as a zip bomb or a file far larger than the agency's.`,
    );
    expect(existsSync(to)).toBe(false);
  });

  it("is refused when the zip is cut, is no zip, or lacks it", async () => {
    // Random bytes do not compress: 2,000 bytes of the zip end within the member.
    const whole = readFileSync(zipFile("whole.zip", { "data.csv": randomBytes(100_000) }));
    const cut = join(dir, "cut.zip");
    writeFileSync(cut, whole.subarray(0, 2000));
    await expect(extractMember(cut, "data.csv", join(dir, "cut.csv"), { url: URL, maxBytes: 1 << 30 })).rejects.toThrow(
      /is not a whole zip file/,
    );
    const page = join(dir, "page.zip");
    writeFileSync(page, "<!DOCTYPE html><html>challenge</html>");
    await expect(
      extractMember(page, "data.csv", join(dir, "page.csv"), { url: URL, maxBytes: 1 << 30 }),
    ).rejects.toThrow(IncompleteDownload);
    const other = zipFile("other.zip", { "else.csv": Buffer.from("a") });
    await expect(
      extractMember(other, "data.csv", join(dir, "else.csv"), { url: URL, maxBytes: 1 << 30 }),
    ).rejects.toThrow(`${URL} holds no data.csv.`);
    expect(existsSync(join(dir, "cut.csv")) || existsSync(join(dir, "else.csv"))).toBe(false);
  });
});
