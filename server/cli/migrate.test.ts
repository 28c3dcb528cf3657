import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { tempFolder } from "../testing/adapter-test-helpers.ts";
import { openStateDb } from "../db/state-db.ts";
import { createKeyRepo } from "../service/key-repo.ts";
import { openDatabase } from "../store/open-database.ts";
import { openServiceState } from "../store/service-state.ts";
import { freshPostgresUrl } from "../testing/state-backends.ts";
import { cliCommand } from "../testing/built-cli.ts";
import { openAppState } from "../web/app-db.ts";
import { verifyPassword } from "../web/accounts/passwords.ts";
import { openUsersStore } from "../web/accounts/users-store.ts";
import { createChecksLog } from "../web/checks/checks-log.ts";
import { openWatchStore } from "../web/watchlist/watch-store.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const temp = tempFolder();
afterAll(() => temp.done());

const PASSWORD = "a long enough password";

function run(command: Parameters<typeof cliCommand>[0], args: string[], env: Record<string, string>, input?: string) {
  return spawnSync(process.execPath, [...cliCommand(command), ...args], {
    cwd: ROOT,
    encoding: "utf8",
    input,
    timeout: 60_000,
    env: { ...process.env, DATABASE_URL: "", APP_URL: "https://lookup.example.com", ...env },
  });
}

describe("npm run migrate -- --take-over: from one machine to several", { timeout: 120_000 }, () => {
  it("copies the single node's keys, users, record of checks and watchlist into PostgreSQL, and only once", async () => {
    // The single node as it ran: a key in use and one revoked, an administrator, checks recorded, a license watched.
    const licenses = temp.path("node/licenses.sqlite");
    const appDb = temp.path("node/app.sqlite");
    const created = run("keys", ["create", "--db", licenses, "--states", "ny", "--label", "shop"], {});
    expect(created.status).toBe(0);
    const key = created.stdout.trim().split("\n").at(-1)!;
    expect(run("keys", ["create", "--db", licenses, "--states", "ma"], {}).status).toBe(0);
    expect(run("keys", ["revoke", "--db", licenses, "2"], {}).status).toBe(0);
    const user = "maria@example.com";
    const added = run("users", ["add", user, "--role", "admin", "--password-stdin"], { APP_DB: appDb }, PASSWORD);
    expect(added.status).toBe(0);
    const single = await openAppState({ file: appDb });
    const who = { email: user, name: null, role: "admin" };
    await createChecksLog(single, { appVersion: "single" }).appendMany(
      ["1268007", "1268008"].map((license) => ({ action: "license page", user: who, state: "ny", license })),
    );
    await openWatchStore(single).add(
      [{ state: "ny", license: "1268007", outcome: "unchecked", record: null, provenance: null }],
      "2026-11-26T10:00:00.000Z",
    );
    const fileChain = await createChecksLog(single, { appVersion: "single" }).verify();
    await single.close();

    const url = await freshPostgresUrl("take-over");
    const taken = run("migrate", ["--take-over", "--db", licenses, "--app-db", appDb], { DATABASE_URL: url });
    expect(taken.stderr).toBe("");
    expect(taken.status).toBe(0);
    // The record: the user's creation and the two license pages.
    expect(fileChain.entries).toBeGreaterThanOrEqual(3);
    expect(taken.stdout).toMatch(
      new RegExp(
        `Took over into postgres.*: 2 API keys, 1 users, 0 sessions, ${fileChain.entries} checks recorded, 1 watched licenses`,
      ),
    );
    expect(taken.stdout).toContain(`newest hash ${fileChain.head}`);

    // On PostgreSQL, what the nodes read: the key works, the revoked one does not, the password signs in.
    const service = await openServiceState(url);
    const keys = createKeyRepo(service);
    const caller = await keys.verify(key);
    expect(caller).toMatchObject({ keyId: 1 });
    expect([caller!.covers("ny"), caller!.covers("ma")]).toEqual([true, false]);
    expect((await keys.list()).map((k) => [k.label, k.revoked_at === null])).toEqual([
      ["shop", true],
      [null, false],
    ]);
    // A key made there now takes the next id, not one of the copied ones.
    expect((await keys.create(["ny"])).id).toBe(3);
    await service.close();
    const app = await openAppState({ url, file: "" });
    const users = openUsersStore(app);
    const maria = (await users.userByEmail(user))!;
    expect(await verifyPassword(PASSWORD, (await users.passwordHash(maria.id))!)).toBe(true);
    expect((await openWatchStore(app).entries()).map((e) => e.license)).toEqual(["1268007"]);
    // The record goes on from where the file's ended, one chain.
    const log = createChecksLog(app, { appVersion: "nodes" });
    await log.append({ action: "license page", user: who, state: "ny", license: "1268009" });
    expect(await log.verify()).toMatchObject({ ok: true, entries: fileChain.entries + 1 });
    await app.close();
    const verified = run("checks", ["verify"], { DATABASE_URL: url });
    expect(verified.stdout).toContain(`The record of checks holds: ${fileChain.entries + 1} entries`);

    // Twice: refused, nothing copied over what the nodes have written since.
    const again = run("migrate", ["--take-over", "--db", licenses, "--app-db", appDb], { DATABASE_URL: url });
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/is not empty: api_keys already holds 3 rows there\. .*nothing was copied/);
    const after = openStateDb({ url });
    expect(await createChecksLog(after, { appVersion: "nodes" }).verify()).toMatchObject({
      ok: true,
      entries: fileChain.entries + 1,
    });
    await after.close();
    // The files are as they were: the single node could still start on them.
    const file = openDatabase(licenses);
    expect(file.prepare("SELECT count(*) FROM api_keys").pluck().get()).toBe(2);
    file.close();
  });

  it("without DATABASE_URL says what it needs", () => {
    const refused = run("migrate", ["--take-over"], {});
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("--take-over copies into PostgreSQL: set DATABASE_URL");
  });
});
