import { spawn, spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { sharedData, tempFolder } from "../import/adapter-test-helpers.ts";
import { openStateDb } from "../db/state-db.ts";
import { createKeyRepo } from "../store/key-repo.ts";
import { openServiceState } from "../store/service-state.ts";
import { freePort } from "../testing/free-port.ts";
import { freshPostgresUrl } from "../testing/state-backends.ts";
import { listSnapshots } from "./snapshot-store.ts";
import { cliCommand } from "../testing/built-cli.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
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
});
