import { createReadStream, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import type { Readable } from "node:stream";
import { create } from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempFolder } from "../../testing/adapter-test-helpers.ts";
import { tarMembers } from "./tar-members.ts";

const temp = tempFolder("tar-members-");
// Larger than any stream buffer on the way: dropping it part way leaves most of it unread.
const BIG = "x,".repeat(1_000_000);

beforeAll(async () => {
  mkdirSync(temp.path("reports/2024-01-02"), { recursive: true });
  writeFileSync(temp.path("reports/2024-01-02/big.csv"), BIG);
  writeFileSync(temp.path("reports/2024-01-02/small.csv"), "a,b\n1,2\n");
  // Written by node-tar, not by the library that reads it.
  for (const gzip of [true, false]) {
    await create({ gzip, file: temp.path(gzip ? "reports.tar.gz" : "reports.tar"), cwd: temp.dir }, [
      "reports/2024-01-02/big.csv",
      "reports/2024-01-02/small.csv",
    ]);
  }
});
afterAll(() => temp.done());

async function text(content: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of content) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

describe("tarMembers", () => {
  it.each([
    ["reports.tar.gz", true],
    ["reports.tar", false],
  ])("gives each file of %s in archive order, whole", async (name, gzip) => {
    const seen: [string, number][] = [];
    for await (const member of tarMembers(createReadStream(temp.path(name)), { gzip })) {
      seen.push([member.path, (await text(member.content)).length]);
    }
    expect(seen).toEqual([
      ["reports/2024-01-02/big.csv", BIG.length],
      ["reports/2024-01-02/small.csv", 8],
    ]);
  });

  it("goes on to the next file when a reader drops one part way, as the layout check does", async () => {
    const seen: [string, string][] = [];
    for await (const member of tarMembers(createReadStream(temp.path("reports.tar.gz")), { gzip: true })) {
      const first = (await member.content[Symbol.asyncIterator]().next()).value as Buffer;
      member.content.destroy();
      seen.push([member.path, first.subarray(0, 4).toString()]);
    }
    expect(seen).toEqual([
      ["reports/2024-01-02/big.csv", "x,x,"],
      ["reports/2024-01-02/small.csv", "a,b\n"],
    ]);
  });

  it("fails, rather than waiting for ever, when the archive ends inside a file", async () => {
    const whole = readFileSync(temp.path("reports.tar.gz"));
    writeFileSync(temp.path("cut.tar.gz"), whole.subarray(0, whole.length / 2));
    const read = async () => {
      for await (const member of tarMembers(createReadStream(temp.path("cut.tar.gz")), { gzip: true })) {
        await text(member.content);
      }
    };
    await expect(read()).rejects.toThrow(/unexpected end of file/);
  });
});
