import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

export interface ChildServer {
  url: string;
  /** The node process itself (not a wrapper), so its /proc entry is the server's memory. */
  pid: number;
  stop(): Promise<number | null>;
}

/**
 * Runs a server entry (a .ts file in bench/) in a node process of its own, so that its memory and
 * CPU are its own; the entry sends `{ url }` over IPC once it listens.
 */
export function startChild(entry: string, args: string[] = [], env: Record<string, string> = {}): Promise<ChildServer> {
  const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL(entry, import.meta.url)), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    // stdout is the servers' request log, not ours; errors still show.
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const early = (code: number | null) => reject(new Error(`${entry} exited with ${code} before it listened`));
    child.once("exit", early);
    child.once("message", (message) => {
      child.off("exit", early);
      child.disconnect();
      resolve({
        url: (message as { url: string }).url,
        pid: child.pid!,
        stop: () => {
          child.kill("SIGTERM");
          return exited;
        },
      });
    });
  });
}
