import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  ensureEngines,
  startPostgres,
  startRedis,
  type RunningPostgres,
  type RunningProcess,
} from "../server/testing/engines.ts";
import { freePort } from "../server/testing/free-port.ts";
import { startHaproxy, type RunningHaproxy } from "./haproxy.ts";
import { command, commandOk, ROOT, run, startNode, type Node } from "./nodes.ts";

const API_ENTRY = join(ROOT, "dist-server/cli/api.js");
const APP_ENTRY = join(ROOT, "dist-server/web/main.js");

export interface ClusterOptions {
  serviceNodes?: number;
  appNodes?: number;
  /** Per key, across every node (Redis). */
  rateLimit?: { perSecond: number; burst: number } | false;
  /** The app nodes' environment beside what the cluster sets (the watchlist's WATCH_*). */
  appEnv?: Record<string, string>;
  /** Demo licenses per state (ny, ma) in each published snapshot. */
  perState?: number;
}

export interface Cluster {
  dir: string;
  postgres: RunningPostgres;
  redis: RunningProcess;
  databaseUrl: string;
  /** DATABASE_URL and REDIS_URL: what every command of the cluster reads. */
  env: Record<string, string>;
  services: Node[];
  apps: Node[];
  haproxy: RunningHaproxy;
  /** The balancer's address for the service and for the app. */
  serviceUrl: string;
  appUrl: string;
  /** The app through the balancer's TLS frontend, and the self-signed certificate (PEM) a client must trust for it. */
  appHttpsUrl: string;
  certificate: string;
  /** The app nodes' key. */
  appKey: string;
  /** A key made for a test, and its revocation through the CLI. */
  newKey(states?: string): Promise<{ id: number; key: string }>;
  /** Starts service node `index` again on its port, with an empty folder: it must fetch the snapshot first. */
  restartService(index: number, options?: { waitPath?: string | null }): Promise<Node>;
  /** Demo data with this seed, imported and published as the newest snapshot. */
  publish(seed: number): Promise<void>;
  /** The SQLite file `publish(seed)` wrote. */
  importFile(seed: number): string;
  stop(): Promise<void>;
}

/** The newest modification time under a folder, to tell a build older than its source. */
function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** The cluster runs what `npm run build` makes, as production does: built again when the source is newer. */
export async function ensureBuilt() {
  const built = [API_ENTRY, APP_ENTRY, join(ROOT, "dist/index.html")];
  const stale =
    built.some((file) => !existsSync(file)) ||
    Math.max(newest(join(ROOT, "server")), newest(join(ROOT, "src"))) >
      Math.min(...built.map((f) => statSync(f).mtimeMs));
  if (!stale) return;
  console.error("Building the app and its servers for the cluster (npm run build)…");
  const { execFileSync } = await import("node:child_process");
  execFileSync("npm", ["run", "build"], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
}

/**
 * A self-signed certificate for 127.0.0.1, made for the run: the balancer ends TLS with it as a production one ends
 * it with the organisation's. The PEM HAProxy reads (certificate and key) and the certificate alone, for clients.
 */
async function selfSignedCertificate(dir: string): Promise<{ pem: string; certificate: string }> {
  const [cert, key] = [join(dir, "tls.crt"), join(dir, "tls.key")];
  const args = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-keyout", key, "-out", cert];
  args.push("-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1");
  try {
    await run("openssl", args);
  } catch (error) {
    throw new Error(
      `the cluster's HTTPS frontend needs a certificate made by openssl (on Debian: sudo apt-get install openssl): ${(error as Error).message}`,
    );
  }
  const pem = join(dir, "tls.pem");
  const certificate = readFileSync(cert, "utf8");
  writeFileSync(pem, certificate + readFileSync(key, "utf8"));
  return { pem, certificate };
}

/** PostgreSQL, Redis, HAProxy, service nodes and app nodes on loopback, each on a free port, in a temporary folder. */
export async function startCluster({
  serviceNodes = 3,
  appNodes = 2,
  rateLimit = false,
  appEnv = {},
  perState = 400,
}: ClusterOptions = {}): Promise<Cluster> {
  ensureEngines("postgres", "redis", "haproxy");
  await ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), "lls-cluster-"));
  const postgres = await startPostgres();
  const redis = await startRedis();
  const databaseUrl = await postgres.database("cluster");
  const env = { DATABASE_URL: databaseUrl, REDIS_URL: redis.url };
  const stops: (() => Promise<void>)[] = [];
  // Last started, first stopped; then the engines and the folder.
  const teardown = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    await redis.stop();
    await postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  };

  const importFile = (seed: number) => join(dir, `import-${seed}.sqlite`);
  const publish = async (seed: number) => {
    const args = [
      "--db",
      importFile(seed),
      "--states",
      "ny,ma",
      "--per-state",
      String(perState),
      "--seed",
      String(seed),
    ];
    await commandOk("server/cli/demo.ts", args, env);
  };

  const newKey = async (states = "all") => {
    const { stdout } = await commandOk(
      "server/cli/keys.ts",
      ["create", "--states", states, "--label", "cluster test"],
      env,
    );
    const key = stdout.trim().split("\n").at(-1)!;
    const id = Number(/Created key (\d+)/.exec(stdout)?.[1]);
    return { id, key };
  };

  const servicePorts = await Promise.all(Array.from({ length: serviceNodes }, () => freePort()));
  const limitArgs = rateLimit
    ? ["--rate-limit", String(rateLimit.perSecond), "--burst", String(rateLimit.burst)]
    : ["--rate-limit", "0"];
  const startService = async (name: string, port: number, waitPath: string | null = "/readyz") => {
    const nodeDir = join(dir, name);
    rmSync(nodeDir, { recursive: true, force: true });
    mkdirSync(nodeDir, { recursive: true });
    const node = await startNode(
      name,
      API_ENTRY,
      ["--db", join(nodeDir, "licenses.sqlite"), "--port", String(port), "--quiet", ...limitArgs],
      env,
      { port, waitPath },
    );
    stops.push(node.kill);
    return node;
  };

  try {
    await publish(1);
    const services = await Promise.all(servicePorts.map((port, i) => startService(`service${i + 1}`, port)));
    const appPorts = await Promise.all(Array.from({ length: appNodes }, () => freePort()));
    const [servicePort, appPort, appHttpsPort] = [await freePort(), await freePort(), await freePort()];
    const tls = await selfSignedCertificate(dir);
    const haproxy = await startHaproxy(dir, [
      {
        name: "service",
        port: servicePort,
        nodes: services.map((s) => ({ name: s.name, address: `127.0.0.1:${s.port}` })),
      },
      ...(appNodes > 0
        ? [
            {
              name: "app",
              port: appPort,
              tls: { port: appHttpsPort, certificate: tls.pem },
              nodes: appPorts.map((p, i) => ({ name: `app${i + 1}`, address: `127.0.0.1:${p}` })),
            },
          ]
        : []),
    ]);
    stops.push(haproxy.stop);
    const serviceUrl = `http://127.0.0.1:${servicePort}`;
    const appKey = (await newKey()).key;
    const apps = await Promise.all(
      appPorts.map(async (port, i) => {
        const node = await startNode(
          `app${i + 1}`,
          APP_ENTRY,
          [],
          {
            ...env,
            ...appEnv,
            PORT: String(port),
            HOST: "127.0.0.1",
            LLS_API_KEY: appKey,
            LLS_BASE_URL: serviceUrl,
            // http: so that a Secure cookie over the TLS frontend can come only from the balancer's X-Forwarded-Proto.
            APP_URL: `http://127.0.0.1:${appPort}`,
            // The balancer alone, not loopback: a client on 127.0.0.2 must not be believed when it names another.
            TRUST_PROXY: "127.0.0.1",
          },
          { port },
        );
        stops.push(node.kill);
        return node;
      }),
    );
    return {
      dir,
      postgres,
      redis,
      databaseUrl,
      env,
      services,
      apps,
      haproxy,
      serviceUrl,
      appUrl: `http://127.0.0.1:${appPort}`,
      appHttpsUrl: `https://127.0.0.1:${appHttpsPort}`,
      certificate: tls.certificate,
      appKey,
      newKey,
      async restartService(index, options) {
        const old = services[index]!;
        await old.kill();
        services[index] = await startService(old.name, old.port, options?.waitPath);
        return services[index];
      },
      publish,
      importFile,
      stop: teardown,
    };
  } catch (error) {
    await teardown();
    throw error;
  }
}

export { command, commandOk };
