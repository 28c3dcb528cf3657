import pg from "pg";
import { Agent, fetch as fetchFrom } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebhookReceiver } from "../server/testing/alert-receivers.ts";
import { openDatabase } from "../server/store/open-database.ts";
import { liveRowsTable } from "../bench/naive-search.ts";
import { startCluster, type Cluster } from "./cluster.ts";
import { command, commandOk, startNode, type Node } from "./nodes.ts";
import { freePort } from "../server/testing/free-port.ts";

/**
 * Issue 31's cluster on loopback: PostgreSQL, Redis, HAProxy, three service nodes and two app nodes, each a real
 * process started from the build, as docs/operating.md's "Several machines" starts them.
 */
const PASSWORD = "cluster-test-password";
let cluster: Cluster;
let hooks: Awaited<ReturnType<typeof startWebhookReceiver>>;
let watched: string[];

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | null | undefined | false>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(50);
  }
}

/** A signed-in session on one app node: the cookie it set. */
async function signIn(node: Node, email: string): Promise<string> {
  const response = await fetch(`${node.url}/api/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

async function api(node: Node, cookie: string, path: string, init: RequestInit = {}) {
  const response = await fetch(`${node.url}${path}`, {
    ...init,
    headers: { cookie, ...(init.body ? { "content-type": "application/json" } : {}), ...(init.headers ?? {}) },
  });
  const body = (await response.json()) as { data: unknown };
  return { status: response.status, data: body.data as Record<string, unknown> };
}

beforeAll(async () => {
  hooks = await startWebhookReceiver();
  cluster = await startCluster({
    rateLimit: { perSecond: 1_000_000, burst: 1_000_000 },
    appEnv: {
      WATCH_WEBHOOK_URL: hooks.url,
      WATCH_WEBHOOK_SECRET: "cluster-secret",
      // A check a test can kill a node in the middle of: one request (100 licenses) a second.
      WATCH_REQUESTS_PER_SECOND: "1",
      WATCH_CHECK_HOURS: "0",
      WATCH_JOB_LEASE_SECONDS: "3",
    },
  });
  for (const email of ["maria@example.com", "auditor@example.com"]) {
    await commandOk(
      "server/cli/users.ts",
      ["add", email, "--role", "member", "--password-stdin"],
      cluster.env,
      `${PASSWORD}\n`,
    );
  }
  const db = openDatabase(cluster.importFile(1));
  watched = db
    .prepare(`SELECT license FROM ${liveRowsTable(db, "ny")} ORDER BY id LIMIT 24`)
    .pluck()
    .all() as string[];
  db.close();
}, 240_000);

afterAll(async () => {
  await cluster?.stop();
  await hooks?.close();
});

describe("keys and the per-key limit across nodes", () => {
  it("brings PostgreSQL up to date with npm run migrate, and finds nothing to do the second time", async () => {
    const db = ["--db", cluster.importFile(1)];
    const first = await commandOk("server/cli/migrate.ts", db, cluster.env);
    expect(first.stdout).toContain("is up to date: keys, snapshots, sync rounds and the app's tables");
    const second = await commandOk("server/cli/migrate.ts", db, cluster.env);
    expect(second.stdout).not.toContain("migrated to");
    expect(second.stdout).toContain("is up to date");
  });

  it("refuses a key revoked through one node on every node within 2 seconds", async () => {
    const { id, key } = await cluster.newKey("ny");
    for (const node of cluster.services) {
      const response = await fetch(`${node.url}/v2/states`, { headers: bearer(key) });
      expect(response.status, node.name).toBe(200);
    }
    await commandOk("server/cli/keys.ts", ["revoke", String(id)], cluster.env);
    // From the command's end, a few milliseconds after its commit (its process starting takes seconds, not counted).
    const revoked = Date.now();
    const refusedAfter = await Promise.all(
      cluster.services.map((node) =>
        until(`${node.name} refuses the revoked key`, 5_000, async () => {
          const response = await fetch(`${node.url}/v2/states`, { headers: bearer(key) });
          return response.status === 401 && Date.now() - revoked;
        }),
      ),
    );
    expect(Math.max(...refusedAfter)).toBeLessThanOrEqual(2_000);
  });

  it("limits one key's burst spread across three nodes as one", async () => {
    // Nodes of their own with a small limit (20 at once, 10 a second), on the same PostgreSQL and Redis.
    const limited: Node[] = [];
    try {
      for (let i = 1; i <= 3; i++) {
        const port = await freePort();
        limited.push(
          await startNode(
            `limited${i}`,
            "dist-server/cli/api.js",
            [
              "--db",
              `${cluster.dir}/limited${i}.sqlite`,
              "--port",
              String(port),
              "--quiet",
              "--rate-limit",
              "10",
              "--burst",
              "20",
            ],
            cluster.env,
            { port, waitPath: "/readyz" },
          ),
        );
      }
      const { key } = await cluster.newKey();
      // 20 a node, all at once: three limits of their own would let all 60 through.
      const statuses = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          fetch(`${limited[i % 3]!.url}/v2/states`, { headers: bearer(key) }).then((r) => r.status),
        ),
      );
      const ok = statuses.filter((s) => s === 200).length;
      expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
      // One window's 20, or two windows' if the burst straddles the limit's window edge.
      expect(ok).toBeGreaterThanOrEqual(20);
      expect(ok).toBeLessThanOrEqual(40);
    } finally {
      for (const node of limited) await node.kill();
    }
  });
});

describe("the app's nodes share their state", () => {
  it("keeps a user signed in through one node signed in on the other", async () => {
    const cookie = await signIn(cluster.apps[0]!, "maria@example.com");
    const session = await api(cluster.apps[1]!, cookie, "/api/session");
    expect(session.status).toBe(200);
    expect(session.data).toMatchObject({ user: { email: "maria@example.com" } });
  });

  it("shows a watchlist change made on one node on the other", async () => {
    const cookie = await signIn(cluster.apps[0]!, "maria@example.com");
    const rows = watched.map((license, i) => ({ row: i + 1, state: "NY", license }));
    const added = await api(cluster.apps[0]!, cookie, "/api/watchlist", {
      method: "POST",
      body: JSON.stringify({ rows }),
    });
    expect(added.status).toBe(200);
    const list = await api(cluster.apps[1]!, cookie, "/api/watchlist");
    expect((list.data.entries as { license: string }[]).map((e) => e.license).sort()).toEqual([...watched].sort());
  });

  it("runs one check when Check now is pressed on both nodes at once", async () => {
    const cookie = await signIn(cluster.apps[0]!, "maria@example.com");
    const [a, b] = await Promise.all(
      cluster.apps.map((node) => api(node, cookie, "/api/watchlist/check", { method: "POST" })),
    );
    expect(a!.status).toBe(202);
    expect(b!.status).toBe(202);
    expect(a!.data.id).toBe(b!.data.id);
    await until("the check finishes", 60_000, async () => {
      const check = await api(cluster.apps[1]!, cookie, "/api/watchlist/check");
      return check.data.finished_at;
    });
  }, 90_000);

  it("writes one unbroken chain of checks from both nodes at once", async () => {
    const cookies = await Promise.all(cluster.apps.map((node) => signIn(node, "maria@example.com")));
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        api(cluster.apps[i % 2]!, cookies[i % 2]!, "/api/checks", {
          method: "POST",
          body: JSON.stringify({
            action: "verify",
            zone: "America/New_York",
            rows: [{ state: "ny", license: watched[i]! }],
          }),
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    const verify = await command("server/cli/checks.ts", ["verify"], cluster.env);
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
  });
});

describe("sign-in behind the balancer", () => {
  /**
   * A client of its own through the balancer: its connections leave from `address` (all of 127/8 is this machine),
   * which the balancer names to the app in X-Forwarded-For. Over TLS it trusts the cluster's certificate.
   */
  function clientAt(address: string, { tls = false } = {}) {
    const dispatcher = new Agent({ localAddress: address, connect: tls ? { ca: cluster.certificate } : {} });
    const base = tls ? cluster.appHttpsUrl : cluster.appUrl;
    return {
      signIn: (email: string, password: string) =>
        fetchFrom(`${base}/api/sign-in`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email, password }),
          dispatcher,
        }),
      get: (path: string, cookie: string) => fetchFrom(`${base}${path}`, { headers: { cookie }, dispatcher }),
      close: () => dispatcher.close(),
    };
  }
  const sessionCookie = (response: Awaited<ReturnType<typeof fetchFrom>>) =>
    response.headers.getSetCookie().find((c) => c.startsWith("lls_session="));

  it("lets ten failures from one client's address lock that address alone: another client signs in", async () => {
    const [guesser, clerk] = [clientAt("127.0.0.2"), clientAt("127.0.0.3")];
    const db = new pg.Client({ connectionString: cluster.databaseUrl });
    await db.connect();
    try {
      for (let i = 0; i < 10; i++) {
        expect((await guesser.signIn(`guess${i}@example.com`, "not the password")).status).toBe(401);
      }
      expect((await guesser.signIn("maria@example.com", PASSWORD)).status).toBe(429);
      expect((await clerk.signIn("maria@example.com", PASSWORD)).status).toBe(200);
      // The record names each client's own address, not the balancer's, and holds one entry for the lockout.
      const { rows } = await db.query<{ action: string; detail: string }>(
        "SELECT action, detail FROM log_entries WHERE action IN ('sign-in', 'sign-in failed') ORDER BY id DESC LIMIT 2",
      );
      expect(rows).toEqual([
        { action: "sign-in", detail: "password, from 127.0.0.3" },
        {
          action: "sign-in failed",
          detail: "10 failed tries in a row from 127.0.0.2, the last as guess9@example.com: locked for 15 minutes",
        },
      ]);
    } finally {
      await Promise.all([guesser.close(), clerk.close(), db.end()]);
    }
  });

  it("marks the session cookie Secure and sends HSTS over the balancer's TLS frontend, and not over plain HTTP", async () => {
    const [overTls, plain] = [clientAt("127.0.0.4", { tls: true }), clientAt("127.0.0.5")];
    try {
      const secure = await overTls.signIn("maria@example.com", PASSWORD);
      expect(secure.status).toBe(200);
      const cookie = sessionCookie(secure)!;
      expect(cookie).toMatch(/; Secure/);
      expect(secure.headers.get("strict-transport-security")).toBe("max-age=31536000");
      expect((await overTls.get("/api/session", cookie.split(";", 1)[0]!)).status).toBe(200);

      const insecure = await plain.signIn("maria@example.com", PASSWORD);
      expect(insecure.status).toBe(200);
      expect(sessionCookie(insecure)).not.toMatch(/Secure/);
      expect(insecure.headers.get("strict-transport-security")).toBeNull();
    } finally {
      await Promise.all([overTls.close(), plain.close()]);
    }
  });
});

describe("one snapshot of the data", () => {
  it("reaches every node within 60 seconds of its import, and no search fails or mixes two snapshots", async () => {
    const snapshotOf = async (node: Node) =>
      (await fetch(`${node.url}/v2/states`, { headers: bearer(cluster.appKey) })).headers.get("x-lls-snapshot");
    const before = await snapshotOf(cluster.services[0]!);
    expect(before).toBeTruthy();
    for (const node of cluster.services) expect(await snapshotOf(node)).toBe(before);

    // Searches through the balancer all along: each answer's data must be its named snapshot's.
    const number = watched[0]!;
    let stop = false;
    const answers: { snapshot: string | null; found: boolean; status: number }[] = [];
    const loop = (async () => {
      while (!stop) {
        const response = await fetch(`${cluster.serviceUrl}/v2/license/ny/${number}`, {
          headers: bearer(cluster.appKey),
        });
        const body = (await response.json()) as { data: unknown };
        answers.push({
          snapshot: response.headers.get("x-lls-snapshot"),
          found: body.data !== null,
          status: response.status,
        });
      }
    })();
    const published = Date.now();
    await cluster.publish(2);
    const after = await Promise.all(
      cluster.services.map((node) =>
        until(`${node.name} serves the new snapshot`, 60_000, async () => {
          const name = await snapshotOf(node);
          return name !== before && name;
        }),
      ),
    );
    const reachedAllMs = Date.now() - published;
    await sleep(300);
    stop = true;
    await loop;
    expect(new Set(after).size).toBe(1);
    expect(reachedAllMs).toBeLessThan(60_000);
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    const foundIn = (snapshot: string | null) =>
      new Set(answers.filter((a) => a.snapshot === snapshot).map((a) => a.found));
    expect(foundIn(before)).toEqual(new Set([true]));
    // Seed 2 numbers its licenses anew: one answer holding the old record under the new name would be a mix.
    expect(foundIn(after[0]!).size).toBe(1);
    expect(answers.some((a) => a.snapshot === after[0])).toBe(true);
  }, 90_000);
});

describe("a node's death", () => {
  it("lets the other app node finish a check whose node was killed, each change alerted once", async () => {
    // The snapshot test replaced seed 1's licenses: a check now finds each watched license gone.
    const cookie = await signIn(cluster.apps[0]!, "maria@example.com");
    const before = hooks.delivered().length;
    const started = await api(cluster.apps[0]!, cookie, "/api/watchlist/check", { method: "POST" });
    expect(started.status).toBe(202);
    const id = started.data.id as number;
    const takenUp = new RegExp(`watchlist: check ${id} taken up by this node`);
    const runner = await until("a node takes up the check", 20_000, async () =>
      cluster.apps.find((node) => takenUp.test(node.output())),
    );
    await runner.kill();
    const survivor = cluster.apps.find((node) => node !== runner)!;
    const finished = await until("the other node finishes the check", 60_000, async () => {
      const check = await api(survivor, cookie, "/api/watchlist/check");
      return check.data.id === id && check.data.finished_at !== null && check.data;
    });
    expect(takenUp.test(survivor.output())).toBe(true);
    expect(finished.checked).toBe(watched.length);
    // One webhook for the check, naming each license's change once, even if the killed node had started it.
    await sleep(3_000);
    const posts = hooks
      .delivered()
      .slice(before)
      .map((hook) => JSON.parse(hook.body) as { check_id: number; changes: { license: string; field: string }[] })
      .filter((body) => body.check_id === id);
    expect(posts).toHaveLength(1);
    const changed = posts[0]!.changes.map((c) => `${c.license} ${c.field}`);
    expect(new Set(changed).size).toBe(changed.length);
    expect(new Set(posts[0]!.changes.map((c) => c.license))).toEqual(new Set(watched));
  }, 120_000);

  it("costs no request the balancer could send again, and a new node is taken in only once its snapshot is loaded", async () => {
    let stop = false;
    const statuses: number[] = [];
    const errors: string[] = [];
    const worker = async () => {
      let i = 0;
      while (!stop) {
        try {
          const response = await fetch(`${cluster.serviceUrl}/v2/license/ny/${watched[i++ % watched.length]!}`, {
            headers: bearer(cluster.appKey),
          });
          await response.arrayBuffer();
          statuses.push(response.status);
        } catch (error) {
          errors.push((error as Error).message);
        }
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    await sleep(1_000);
    await cluster.services[1]!.kill();
    await sleep(1_500);
    // Started again with an empty folder: out of the balancer until its snapshot is in.
    const reborn = await cluster.restartService(1, { waitPath: null });
    const seen: { ready: boolean; balancer: string }[] = [];
    await until("the restarted node is ready and taken in", 60_000, async () => {
      const ready = await fetch(`${reborn.url}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
      const balancer = (await cluster.haproxy.states("service"))[reborn.name] ?? "absent";
      seen.push({ ready, balancer });
      return ready && balancer.startsWith("UP");
    });
    await sleep(500);
    stop = true;
    await Promise.all(workers);
    expect(seen.filter((s) => !s.ready && s.balancer.startsWith("UP"))).toEqual([]);
    expect(seen.some((s) => !s.ready)).toBe(true);
    expect(errors).toEqual([]);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(statuses.length).toBeGreaterThan(100);
  }, 120_000);
});
