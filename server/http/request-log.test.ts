import { spawn } from "node:child_process";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { licenseFixture } from "../testing/license-fixture.ts";
import { tempService } from "../testing/temp-service.ts";

const TSX = join(import.meta.dirname, "../../node_modules/.bin/tsx");
const lines: string[] = [];
const stream = new Writable({
  write(chunk, _encoding, done) {
    lines.push(...String(chunk).split("\n").filter(Boolean));
    done();
  },
});
let service: Awaited<ReturnType<typeof tempService>>;

beforeAll(async () => {
  service = await tempService({ ny: [licenseFixture({ license: "1268007" })] }, { logger: { level: "info", stream } });
});
afterAll(() => service.close());

describe("request log", () => {
  it("writes one JSON line per request with id, method, path, status and milliseconds, and never the key", async () => {
    const { key, headers } = await service.keyFor(["ny"]);
    const requests = [
      { url: "/v2/license/ny/1268007", headers },
      { url: "/v2/search?state=ny&name=rabbit", headers },
      { url: "/v2/search?state=ny", headers },
      { url: "/v2/states", headers: { authorization: `Bearer ${key}x` } },
      { url: "/v2/states", headers: { authorization: `Basic ${Buffer.from(`user:${key}`).toString("base64")}` } },
    ];
    const responses: Awaited<ReturnType<typeof service.app.inject>>[] = [];
    for (const request of requests) responses.push(await service.app.inject(request));

    expect(lines).toHaveLength(requests.length);
    const entries = lines.map((line): unknown => JSON.parse(line));
    entries.forEach((entry, i) => {
      expect(entry).toMatchObject({
        reqId: responses[i]!.headers["x-request-id"],
        method: "GET",
        path: requests[i]!.url.split("?")[0],
        status: responses[i]!.statusCode,
        ms: expect.any(Number),
      });
    });
    const log = lines.join("\n");
    expect(log).not.toContain(key);
    expect(log).not.toContain(key.slice(3, 20));
    expect(log.toLowerCase()).not.toContain("authorization");
    expect(log).not.toContain("rabbit");
  });
});

describe("the server's stdout log (bufferedStdout)", () => {
  it.each([
    ["on a clean close", "log.flush(); process.exit(0);"],
    ["when the process exits without one", "process.exit(0);"],
  ])(
    "shows a quiet server's lines while it runs, keeps their order, and loses none %s",
    async (_when, end) => {
      // A child process stands in for the server: stdout is what an operator reads.
      const script = `
      import { bufferedStdout } from ${JSON.stringify(join(import.meta.dirname, "request-log.ts"))};
      const log = bufferedStdout();
      for (let i = 0; i < 3; i++) log.stream.write("quiet " + i + "\\n");
      process.stdin.once("data", async () => {
        for (let turn = 0; turn < 50; turn++) {
          for (let i = 0; i < 100; i++) log.stream.write("busy " + (turn * 100 + i) + "\\n");
          await new Promise((resolve) => setImmediate(resolve));
        }
        for (let i = 5000; i < 5010; i++) log.stream.write("busy " + i + "\\n");
        ${end}
      });`;
      const child = spawn(TSX, ["--eval", script], { stdio: ["pipe", "pipe", "inherit"] });
      let out = "";
      child.stdout.setEncoding("utf8");
      const seen = (text: string) =>
        new Promise<void>((resolve) => {
          const check = () => out.includes(text) && resolve();
          child.stdout.on("data", (chunk: string) => {
            out += chunk;
            check();
          });
          check();
        });
      // No more lines come and the process does not end: the quiet lines must show on their own.
      await seen("quiet 2\n");
      expect(child.exitCode).toBeNull();
      child.stdin.write("go\n");
      const code = await new Promise((resolve) => child.once("exit", resolve));
      expect(code).toBe(0);
      const expected = [...[0, 1, 2].map((i) => `quiet ${i}`), ...Array.from({ length: 5010 }, (_, i) => `busy ${i}`)];
      expect(out.trimEnd().split("\n")).toEqual(expected);
    },
    20_000,
  );
});
