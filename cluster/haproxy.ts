import { spawn, type ChildProcess } from "node:child_process";
import { createConnection } from "node:net";
import { writeFileSync } from "node:fs";
import { listening } from "../server/testing/engines.ts";
import { join } from "node:path";

export interface Backend {
  name: string;
  /** host:port of each node. */
  nodes: { name: string; address: string }[];
  /** The port the balancer listens on for this backend. */
  port: number;
  /** A second port where the balancer ends TLS for it, with `certificate` (a PEM holding the certificate and key). */
  tls?: { port: number; certificate: string };
}

/**
 * The balancer in front of the nodes, as docs/operating.md's recipe writes it: a node is taken in once its /readyz
 * answers 200 and out when it stops; a request whose node refused the connection or died before answering is sent to
 * another (the service is read-only, and the app's writes are keyed so that a repeat changes nothing).
 */
export function haproxyConfig(backends: Backend[], { statsSocket }: { statsSocket: string }): string {
  const lines = [
    "global",
    "  maxconn 4096",
    `  stats socket ${statsSocket} mode 600 level admin`,
    "",
    "defaults",
    "  mode http",
    "  timeout connect 1s",
    "  timeout client 30s",
    "  timeout server 30s",
    "  timeout http-request 10s",
    // A connection refused, or a node that died before answering, costs the client nothing: another node answers.
    "  retries 3",
    "  option redispatch 1",
    "  retry-on conn-failure empty-response response-timeout",
    // The nodes see the balancer's address: it names the client's (the app's TRUST_PROXY believes it, and only it).
    "  option forwardfor",
    "  option httpchk GET /readyz",
    "  http-check expect status 200",
    // Checked twice a second: a starting node is in within half a second of being ready.
    "  default-server inter 500ms fastinter 250ms downinter 500ms rise 1 fall 2",
  ];
  for (const backend of backends) {
    lines.push(
      "",
      `frontend ${backend.name}_in`,
      `  bind 127.0.0.1:${backend.port}`,
      ...(backend.tls ? [`  bind 127.0.0.1:${backend.tls.port} ssl crt ${backend.tls.certificate}`] : []),
      // Set here, never passed on: a client's own X-Forwarded-For and -Proto would otherwise reach the node.
      "  http-request del-header X-Forwarded-For",
      "  http-request set-header X-Forwarded-Proto https if { ssl_fc }",
      "  http-request set-header X-Forwarded-Proto http if !{ ssl_fc }",
      `  default_backend ${backend.name}`,
      "",
      `backend ${backend.name}`,
      "  balance roundrobin",
      ...backend.nodes.map((node) => `  server ${node.name} ${node.address} check`),
      // When every node is unready for the same shared reason (Redis or PostgreSQL away), serving beats refusing all.
      ...backend.nodes.map((node) => `  server ${node.name}-fallback ${node.address} backup`),
    );
  }
  return `${lines.join("\n")}\n`;
}

export interface RunningHaproxy {
  process: ChildProcess;
  /** Each server's state as the balancer sees it: "UP", "DOWN", "MAINT"… */
  states(backend: string): Promise<Record<string, string>>;
  /** A line for the admin socket (`disable server service/service3`); its answer. */
  admin(line: string): Promise<string>;
  stop: () => Promise<void>;
}

export async function startHaproxy(dir: string, backends: Backend[]): Promise<RunningHaproxy> {
  const statsSocket = join(dir, "haproxy.sock");
  const config = join(dir, "haproxy.cfg");
  writeFileSync(config, haproxyConfig(backends, { statsSocket }));
  const child = spawn("haproxy", ["-f", config, "-db"], { stdio: ["ignore", "ignore", "pipe"] });
  let errors = "";
  child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  const until = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited: ${errors}`);
    if (await listening(backends[0]!.port)) break;
    if (Date.now() > until) throw new Error(`haproxy did not listen: ${errors}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    process: child,
    async states(backend) {
      const csv = await command(statsSocket, "show stat");
      const states: Record<string, string> = {};
      for (const line of csv.split("\n")) {
        const fields = line.split(",");
        if (fields[0] === backend && fields[1] !== "BACKEND" && fields[1] !== "FRONTEND")
          states[fields[1]!] = fields[17]!;
      }
      return states;
    },
    admin: (line) => command(statsSocket, line),
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

function command(socketPath: string, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    const socket = createConnection(socketPath, () => socket.write(`${text}\n`));
    socket.on("data", (chunk) => (out += chunk.toString()));
    socket.on("end", () => resolve(out));
    socket.on("error", reject);
  });
}
