import { spawn } from "node:child_process";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";

/**
 * A process that stops as the servers do, with a close of the given kind; it prints "ready" once its
 * handlers are in place and "closing" when the close starts.
 */
function stoppable(close: "never finishes" | "takes half a second", graceMs: number) {
  const closeBody =
    close === "never finishes" ? "new Promise(() => {})" : "new Promise((resolve) => setTimeout(resolve, 500))";
  const script = `
    import { closeOnSignals } from ${JSON.stringify(join(import.meta.dirname, "close-on-signals.ts"))};
    closeOnSignals(() => { console.log("closing"); return ${closeBody}; }, { graceMs: ${graceMs} });
    setInterval(() => {}, 1000);
    console.log("ready");`;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "--eval", script], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const printed = (text: string) =>
    new Promise<void>((resolve) => {
      const check = () => stdout.includes(text) && resolve();
      child.stdout.on("data", check);
      check();
    });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { child, printed, exited, stderr: () => stderr };
}

describe("closeOnSignals: a stop never hangs", { timeout: 30_000 }, () => {
  it("a close that outlasts the grace period ends the process with 1 and says why", async () => {
    const server = stoppable("never finishes", 500);
    await server.printed("ready");
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(1);
    expect(server.stderr()).toContain("still closing after 0.5 s");
  });

  it("a second signal a second after the first ends the process at once with 1", async () => {
    const server = stoppable("never finishes", 60_000);
    await server.printed("ready");
    server.child.kill("SIGTERM");
    await server.printed("closing");
    await sleep(1_100);
    const sent = Date.now();
    server.child.kill("SIGINT");
    expect(await server.exited).toBe(1);
    expect(Date.now() - sent).toBeLessThan(5_000);
    expect(server.stderr()).toContain("SIGINT again");
  });

  it("a repeat within the first second, as npm forwards a terminal's Ctrl+C, does not cut the stop short", async () => {
    const server = stoppable("takes half a second", 10_000);
    await server.printed("ready");
    server.child.kill("SIGINT");
    await sleep(50);
    server.child.kill("SIGINT");
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toBe("");
  });
});
