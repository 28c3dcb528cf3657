import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port.ts";

/**
 * The engines the multi-node mode runs on, started by the tests themselves: PostgreSQL, Redis and HAProxy on
 * loopback, each in a temporary folder on a free port, stopped and removed after. A machine without them gets
 * Debian's packages when it can (root, apt-get), as `npm test` gets its browser.
 */
const DEBIAN_PACKAGES = { postgres: "postgresql", redis: "redis-server", haproxy: "haproxy" } as const;
export type Engine = keyof typeof DEBIAN_PACKAGES;

const isRoot = () => process.getuid?.() === 0;

function postgresBin(): string | null {
  const root = "/usr/lib/postgresql";
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(join(root, v, "bin", "initdb")))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(root, versions[0], "bin");
  }
  try {
    return execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim();
  } catch {
    return null;
  }
}

function onPath(command: string): boolean {
  try {
    execFileSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

const present: Record<Engine, () => boolean> = {
  postgres: () => postgresBin() !== null,
  redis: () => onPath("redis-server"),
  haproxy: () => onPath("haproxy") || existsSync("/usr/sbin/haproxy"),
};

/** Installs what is missing through apt-get when it can; else stops with one sentence of what to install. */
export function ensureEngines(...engines: Engine[]): void {
  const missing = engines.filter((e) => !present[e]());
  if (missing.length === 0) return;
  const packages = missing.map((e) => DEBIAN_PACKAGES[e]);
  if (isRoot() && onPath("apt-get")) {
    console.error(`Installing ${packages.join(", ")} (Debian packages) for the tests…`);
    const apt = (args: string[]) =>
      execFileSync("apt-get", args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
    try {
      apt(["install", "-y", "--no-install-recommends", ...packages]);
    } catch {
      apt(["update"]);
      apt(["install", "-y", "--no-install-recommends", ...packages]);
    }
    if (engines.every((e) => present[e]())) return;
  }
  throw new Error(
    `These tests need ${packages.join(", ")}: install ${missing.length > 1 ? "them" : "it"} ` +
      `(on Debian: sudo apt-get install ${packages.join(" ")}) and run them again`,
  );
}

/** Whether something accepts connections on this loopback port. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: "127.0.0.1" }, () => {
      socket.end();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });
}

async function waitFor(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what} did not start within ${timeoutMs / 1000} s`);
}

export interface RunningPostgres {
  /** The `postgres` database as superuser; `database(name)` makes another. */
  url: string;
  port: number;
  database(name: string): Promise<string>;
  stop(): Promise<void>;
}

/** A PostgreSQL cluster of its own (as the `postgres` user when run as root: it refuses root). */
export async function startPostgres(): Promise<RunningPostgres> {
  ensureEngines("postgres");
  const bin = postgresBin()!;
  const dir = mkdtempSync(join(tmpdir(), "lls-pg-"));
  const data = join(dir, "data");
  const port = await freePort();
  const asOwner = (command: string, args: string[]) => {
    if (isRoot()) {
      chownSync(dir, uidOf("postgres"), gidOf("postgres"));
      const line = [command, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
      return execFileSync("su", ["postgres", "-s", "/bin/sh", "-c", line], { stdio: "pipe" });
    }
    return execFileSync(command, args, { stdio: "pipe" });
  };
  asOwner(join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
  writeFileSync(join(dir, "port"), String(port));
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses=127.0.0.1",
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
    "-c max_connections=200",
  ].join(" ");
  asOwner(join(bin, "pg_ctl"), ["-D", data, "-o", options, "-l", join(dir, "log"), "-w", "-t", "30", "start"]);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let made = 0;
  return {
    url,
    port,
    async database(name) {
      const { default: pg } = await import("pg");
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const db = `${name.replace(/[^a-z0-9_]/gi, "_").toLowerCase()}_${++made}`;
      await client.query(`CREATE DATABASE ${db}`);
      await client.end();
      return `postgres://postgres@127.0.0.1:${port}/${db}`;
    },
    stop() {
      try {
        asOwner(join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      return Promise.resolve();
    },
  };
}

function idOf(flag: "-u" | "-g", name: string): number {
  return Number(execFileSync("id", [flag, name], { encoding: "utf8" }).trim());
}
const uidOf = (name: string) => idOf("-u", name);
const gidOf = (name: string) => idOf("-g", name);

export interface RunningProcess {
  url: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** A Redis of its own, without persistence. */
export async function startRedis(): Promise<RunningProcess> {
  ensureEngines("redis");
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "lls-redis-"));
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
    { stdio: "ignore" },
  );
  await waitFor(() => listening(port), "redis-server");
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    process: child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGKILL");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
