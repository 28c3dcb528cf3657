import { execFile, spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
const run = promisify(execFile);

/** One of the project's commands, as a user types it (`npm run users -- …`), with these variables. */
export async function command(script: string, args: string[], env: Record<string, string>, input?: string) {
  const child = execFile(process.execPath, ["--import", "tsx", script, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
  });
  if (input !== undefined) child.stdin!.end(input);
  return new Promise<{ stdout: string; stderr: string; code: number }>((resolve) => {
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("exit", (code) => resolve({ stdout, stderr, code: code ?? -1 }));
  });
}

export const commandOk = async (...args: Parameters<typeof command>) => {
  const result = await command(...args);
  if (result.code !== 0) throw new Error(`${args[0]} ${args[1].join(" ")} failed (${result.code}): ${result.stderr}`);
  return result;
};

export interface Node {
  name: string;
  port: number;
  url: string;
  process: ChildProcess;
  /** What it wrote to stderr (and stdout), for a failing test's message. */
  output(): string;
  /** SIGKILL: the node dies as a machine would, mid-request. */
  kill: () => Promise<void>;
  /** SIGTERM: a clean stop. */
  stop: () => Promise<void>;
}

/** Starts a built server (`node dist-server/…`) and waits until `waitPath` answers 200 (or the process dies). */
export async function startNode(
  name: string,
  entry: string,
  args: string[],
  env: Record<string, string>,
  { port, waitPath = "/healthz", timeoutMs = 60_000 }: { port: number; waitPath?: string | null; timeoutMs?: number },
): Promise<Node> {
  const child = spawn(process.execPath, [entry, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-1_000_000);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const url = `http://127.0.0.1:${port}`;
  const stopWith = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill(signal);
    await exited;
  };
  const node: Node = {
    name,
    port,
    url,
    process: child,
    output: () => output,
    kill: () => stopWith("SIGKILL"),
    stop: () => stopWith("SIGTERM"),
  };
  if (waitPath === null) return node;
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}: ${output}`);
    try {
      const response = await fetch(`${url}${waitPath}`, { signal: AbortSignal.timeout(1000) });
      if (response.ok) return node;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) {
      await node.kill();
      throw new Error(`${name} did not answer ${waitPath} within ${timeoutMs / 1000} s: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export { run };
