import { spawn, spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { sharedData, tempFolder } from "../../testing/adapter-test-helpers.ts";
import { openStateDb } from "../../db/state-db.ts";
import { createKeyRepo } from "../../service/key-repo.ts";
import { openServiceState } from "../../store/service-state.ts";
import { freePort } from "../../testing/free-port.ts";
import { freshPostgresUrl } from "../../testing/state-backends.ts";
import { listSnapshots } from "../../store/snapshots/snapshot-store.ts";
import { cliCommand } from "../../testing/built-cli.ts";
import { takeLock } from "../../db/advisory-lock.ts";
import { NODE_SYNC_LOCK } from "../sync/node-sync.ts";
import { openDatabase } from "../../store/open-database.ts";
import { createLicenseRepo } from "../../store/license-repo.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const temp = tempFolder();
afterAll(() => temp.done());

// Two processes that compile their command first, one importing a real file: a minute or more on a busy machine.
describe("npm run import, then npm run api, with DATABASE_URL", { timeout: 180_000 }, () => {
  it("the import publishes the database; a node with an empty folder fetches it before it listens, and names it", async () => {
    const url = await freshPostgresUrl("cli");
    const env = { ...process.env, DATABASE_URL: url };
    const imported = spawnSync(
      process.execPath,
      [...cliCommand("import"), "--db", temp.path("importer/licenses.sqlite")].concat([
        "--source",
        "ny-sla",
        "--as-of",
        "2016-01-15",
        sharedData("ny/nyc_bars.csv"),
      ]),
      { cwd: ROOT, encoding: "utf8", timeout: 90_000, env },
    );
    expect(imported.status).toBe(0);
    expect(imported.stderr).toMatch(/published snapshot [0-9a-f]{12} \([\d.]+ MB\) to postgres/);
    const state = openStateDb({ url });
    const [published] = await listSnapshots(state);
    await state.close();
    expect(JSON.parse(published!.states)).toEqual([{ state: "ny", records: 6657, as_of: "2016-01-15" }]);

    // Made as `npm run keys` with the same DATABASE_URL makes one; the node's folder is empty.
    const keyState = await openServiceState(url);
    const { key } = await createKeyRepo(keyState).create(["ny"]);
    await keyState.close();
    const nodeDb = temp.path("node/licenses.sqlite");
    const port = await freePort();
    const api = spawn(process.execPath, [...cliCommand("api"), "--quiet", "--db", nodeDb, "--port", String(port)], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    api.stderr.on("data", (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => api.on("exit", resolve));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start: ${stderr}`)), 60_000);
        api.stderr.on("data", () => stderr.includes("listening") && (clearTimeout(timer), resolve()));
      });
      expect(stderr).toContain(`serving snapshot ${published!.sha256.slice(0, 12)}`);
      const answer = await fetch(`http://127.0.0.1:${port}/v2/license/ny/1268007`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("x-lls-snapshot")).toBe(published!.sha256.slice(0, 12));
      expect(await answer.text()).toContain('"business":"DEAD RABBIT TAVERN"');
      const states = await fetch(`http://127.0.0.1:${port}/v2/states`, { headers: { authorization: `Bearer ${key}` } });
      expect(await states.json()).toMatchObject({ snapshot: { sha256: published!.sha256 } });
      expect(readdirSync(temp.path("node"))).toEqual([`licenses-snapshot-${published!.sha256}.sqlite`]);
    } finally {
      api.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  });
  it("an import on another machine waits for the sync under way, starts from the newest snapshot, and publishes both", async () => {
    const url = await freshPostgresUrl("cli-turn");
    const env = { ...process.env, DATABASE_URL: url };
    const first = spawnSync(
      process.execPath,
      [...cliCommand("import"), "--db", temp.path("a/licenses.sqlite"), "--source", "ny-sla"].concat([
        "--as-of",
        "2016-01-15",
        sharedData("ny/nyc_bars.csv"),
      ]),
      { cwd: ROOT, encoding: "utf8", timeout: 90_000, env },
    );
    expect(first.status).toBe(0);
    const state = openStateDb({ url });
    try {
      const [nyOnly] = await listSnapshots(state);
      // A sync under way on a third machine holds the nodes' lock.
      const lock = (await takeLock(url, NODE_SYNC_LOCK, { wait: false }))!;
      const second = spawn(
        process.execPath,
        [...cliCommand("import"), "--db", temp.path("b/licenses.sqlite"), "--source", "ma-abcc"].concat([
          sharedData("ma/ma_license_list.csv"),
        ]),
        { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] },
      );
      let stderr = "";
      second.stderr.on("data", (chunk) => (stderr += chunk));
      const exited = new Promise<number | null>((resolve) => second.on("exit", resolve));
      await expect
        .poll(() => stderr, { timeout: 60_000 })
        .toContain("waiting for another node's sync or import to end");
      // It waits: nothing imported or published while the sync holds the lock.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await listSnapshots(state)).toHaveLength(1);
      await lock.release();
      expect(await exited).toBe(0);
      expect(stderr).toContain(`starts from snapshot ${nyOnly!.sha256.slice(0, 12)}, the newest`);
      const [newest] = await listSnapshots(state);
      const states = JSON.parse(newest!.states) as { state: string; records: number }[];
      // What the first machine published is still there beside what this one imported.
      expect(states.map((s) => s.state)).toEqual(["ma", "ny"]);
      expect(states.find((s) => s.state === "ny")!.records).toBe(6657);
    } finally {
      await state.close();
    }
  });

  it("an import whose file holds states no snapshot does is refused, naming them, and changes nothing", async () => {
    const url = await freshPostgresUrl("cli-unpublished");
    const importTo = (db: string, env: NodeJS.ProcessEnv, ...args: string[]) =>
      spawnSync(process.execPath, [...cliCommand("import"), "--db", temp.path(db), ...args], {
        cwd: ROOT,
        encoding: "utf8",
        timeout: 90_000,
        env,
      });
    const withUrl = { ...process.env, DATABASE_URL: url };
    const ny = ["--source", "ny-sla", "--as-of", "2016-01-15", sharedData("ny/nyc_bars.csv")];
    expect(importTo("pub/licenses.sqlite", withUrl, ...ny).status).toBe(0);
    // Massachusetts imported on this machine without DATABASE_URL: in its file only.
    const local = { ...process.env, DATABASE_URL: "" };
    expect(
      importTo("local/licenses.sqlite", local, "--source", "ma-abcc", sharedData("ma/ma_license_list.csv")).status,
    ).toBe(0);

    const refused = importTo("local/licenses.sqlite", withUrl, ...ny);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(
      /licenses\.sqlite holds MA as no published snapshot does .*which would drop them\. Nothing was imported\. Move .* aside/,
    );
    const state = openStateDb({ url });
    try {
      expect(await listSnapshots(state)).toHaveLength(1);
    } finally {
      await state.close();
    }
    const kept = openDatabase(temp.path("local/licenses.sqlite"));
    expect(
      createLicenseRepo(kept)
        .coverage()
        .map((c) => c.state),
    ).toEqual(["ma"]);
    kept.close();
  });
});
