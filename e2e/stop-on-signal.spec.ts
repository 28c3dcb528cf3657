import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { expect, test } from "@playwright/test";
import { fillDemo } from "../server/data/demo/fill-demo.ts";
import { openDatabase } from "../server/store/open-database.ts";
import { addUser, sessionCookie } from "./accounts.ts";
import { freePort } from "../server/testing/free-port.ts";
import { start, stop, waitForHttp } from "./global-setup.ts";

// The production commands as README gives them, stopped the way `kill PID`, a supervisor or a terminal's
// Ctrl+C stops them: a signal to the process the command started, which is npm's.
const HOST = "127.0.0.1";

/** A database of its own: the -wal file it leaves shows whether the service closed it. */
async function seededDb() {
  const dir = mkdtempSync(join(tmpdir(), "stop-on-signal-"));
  const file = join(dir, "licenses.sqlite");
  const db = openDatabase(file, { create: true });
  await fillDemo(db, ["ny"], 20);
  db.close();
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

function startApi(db: string, port: number) {
  return start(["run", "api", "--", "--db", db, "--port", String(port), "--host", HOST, "--quiet"]);
}

// The app servers' watchlists, out of the project's own data/ folder.
const watchDir = mkdtempSync(join(tmpdir(), "stop-on-signal-watch-"));
test.afterAll(() => rmSync(watchDir, { recursive: true, force: true }));

function startServe(port: number, apiUrl: string) {
  return start(["run", "serve"], {
    LLS_BASE_URL: apiUrl,
    LLS_API_KEY: process.env.E2E_API_KEY!,
    HOST,
    PORT: String(port),
    LOG: "0",
    APP_DB: join(watchDir, `app-${port}.sqlite`),
    SESSION_COOKIE: `lls_session_${port}`,
  });
}

/** Whether a restarted server could listen there now. */
async function portIsFree(port: number): Promise<boolean> {
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once("error", () => resolve(false));
    probe.listen(port, HOST, () => probe.close(() => resolve(true)));
  });
}

/** What an operator sees within 5 s of the signal: whether the port is free, and how the command ended. */
async function stopWith(server: ChildProcess, port: number, send: () => void) {
  const deadline = Date.now() + 5_000;
  const exit = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    server.once("exit", (code, signal) => resolve({ code, signal })),
  );
  send();
  let free = false;
  while (!(free = await portIsFree(port)) && Date.now() < deadline) await sleep(100);
  const ended = await Promise.race([exit, sleep(Math.max(0, deadline - Date.now()), "still running" as const)]);
  return { free, ended };
}

const CLEAN_STOP = { free: true, ended: { code: 0, signal: null } };

const STOPS = [
  { how: "sent SIGTERM", send: (npm: ChildProcess) => npm.kill("SIGTERM") },
  { how: "sent SIGINT", send: (npm: ChildProcess) => npm.kill("SIGINT") },
  // The terminal signals its whole foreground group and npm forwards its copy: the server may get two, for one stop.
  {
    how: "stopped by Ctrl+C in a terminal (SIGINT to npm and the server at once)",
    send: (npm: ChildProcess) => process.kill(-npm.pid!, "SIGINT"),
  },
];

for (const { how, send } of STOPS) {
  test(`npm run api, ${how}: the port is free within 5 s, the database closed, and it exits 0`, async () => {
    const db = await seededDb();
    const port = await freePort();
    const api = startApi(db.file, port);
    try {
      await waitForHttp(`http://${HOST}:${port}/v2/states`, api);
      expect(existsSync(`${db.file}-wal`)).toBe(true);
      expect(await stopWith(api, port, () => send(api))).toEqual(CLEAN_STOP);
      expect(existsSync(`${db.file}-wal`)).toBe(false);
    } finally {
      await stop(api);
      db.remove();
    }
  });

  test(`npm run serve, ${how}: the port is free within 5 s and it exits 0`, async () => {
    const port = await freePort();
    const web = startServe(port, process.env.E2E_API_URL!);
    try {
      await waitForHttp(`http://${HOST}:${port}/`, web);
      const page = await fetch(`http://${HOST}:${port}/`, { headers: { accept: "text/html" } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("<title>License Lookup</title>");
      expect(await stopWith(web, port, () => send(web))).toEqual(CLEAN_STOP);
    } finally {
      await stop(web);
    }
  });
}

for (const { how, send } of STOPS) {
  test(`npm run serve, ${how} mid-request: it takes no new connection, yet the request in flight gets its answer`, async () => {
    let arrived!: () => void;
    let release!: () => void;
    const upstreamAsked = new Promise<void>((resolve) => (arrived = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    // A service that holds its answer until the test lets it go.
    const upstream = createHttpServer((_request, response) => {
      arrived();
      void released.then(() => {
        response.writeHead(200, { "content-type": "application/json" });
        response.end('{"data":null}');
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, HOST, resolve));
    const port = await freePort();
    const web = startServe(port, `http://${HOST}:${(upstream.address() as AddressInfo).port}`);
    try {
      await waitForHttp(`http://${HOST}:${port}/`, web);
      addUser(join(watchDir, `app-${port}.sqlite`), "stopper@example.com", "member");
      const { name, value } = await sessionCookie(
        `http://${HOST}:${port}`,
        "stopper@example.com",
        `lls_session_${port}`,
      );
      const inFlight = fetch(`http://${HOST}:${port}/v2/license/ny/0012345`, {
        headers: { cookie: `${name}=${value}` },
      });
      await upstreamAsked;
      const stopped = stopWith(web, port, () => send(web));
      await expect.poll(() => portIsFree(port), { timeout: 5_000 }).toBe(true);
      release();
      const answer = await inFlight;
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ data: null });
      expect(await stopped).toEqual(CLEAN_STOP);
    } finally {
      release();
      await stop(web);
      upstream.close();
    }
  });
}
