import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { z } from "zod/mini";
import { signature, SIGNATURE_HEADER } from "../server/web/watchlist/deliveries.ts";
import { startMailReceiver, startWebhookReceiver } from "../server/testing/alert-receivers.ts";
import { WatchWebhookSchema } from "../src/contract/watchlist.ts";
import { addUser, signInAs } from "./accounts.ts";
import { stop } from "./global-setup.ts";
import { NYC_BARS, startNycStack } from "./own-stack.ts";

const SECRET = "e2e-webhook-secret";
// Three licenses of New York City's real list: the test moves the first one's expiry and removes the second.
const MOVED = { license: "1275754", name: "TEMPO LIBERO BAR CORP" };
const REMOVED = { license: "1275736", name: "KAIA WINE BAR" };
const KEPT = { license: "1275724", name: "LA VUE" };

test("a team watches three licenses; a changed list shows on the watchlist, in one signed webhook and in one email", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), "license-lookup-watch-"));
  const servers: ChildProcess[] = [];
  const hook = await startWebhookReceiver();
  const smtp = await startMailReceiver();
  try {
    const { appUrl, appDb, importNext } = await startNycStack(dir, servers, {
      WATCH_WEBHOOK_URL: hook.url,
      WATCH_WEBHOOK_SECRET: SECRET,
      SMTP_URL: smtp.url,
      WATCH_EMAIL_TO: "compliance@example.com",
    });
    addUser(appDb, "watcher@example.com", "member");
    await signInAs(page, appUrl, "watcher@example.com");

    // The clerk watches each from its page.
    for (const { license } of [MOVED, REMOVED, KEPT]) {
      await page.goto(`${appUrl}/license/ny/${license}`);
      await page.getByRole("button", { name: "Watch", exact: true }).click();
      // Adding reads the license from the service first: on a loaded machine that takes longer than the default wait.
      await expect(page.getByRole("button", { name: "Watching" })).toBeVisible({ timeout: 15_000 });
    }

    // The agency's next list: one expiry moved, one license gone; imported while both servers run.
    const original = readFileSync(NYC_BARS, "utf8");
    const changed = original
      .split("\n")
      .filter((line) => !line.startsWith(`${REMOVED.license},`))
      .map((line) => (line.startsWith(`${MOVED.license},`) ? line.replace('"02/28/2016"', '"02/28/2018"') : line))
      .join("\n");
    expect(changed).not.toBe(original);
    const next = join(dir, "nyc_bars.csv");
    writeFileSync(next, changed);
    importNext(next, "2016-06-01");

    await page.goto(`${appUrl}/watchlist`);
    await expect(page.getByRole("row")).toHaveCount(4);
    await page.getByRole("button", { name: "Check now" }).click();
    const changes = page.getByRole("region", { name: "Changed since you last looked" });
    await expect(changes.getByText("Expiry moved from February 28, 2016 to February 28, 2018")).toBeVisible();
    await expect(changes.getByText(/No longer listed/)).toBeVisible();
    await expect(changes.getByRole("link", { name: new RegExp(REMOVED.license) })).toHaveAttribute(
      "href",
      `/license/ny/${REMOVED.license}`,
    );

    // The page a clerk now reads is one everyone can read.
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual(
      [],
    );

    // One webhook, signed, with both changes.
    await expect.poll(() => hook.delivered().length, { timeout: 15_000 }).toBe(1);
    const [delivery] = hook.delivered();
    expect(delivery!.headers[SIGNATURE_HEADER]).toBe(signature(SECRET, delivery!.body));
    const body = z.parse(WatchWebhookSchema, JSON.parse(delivery!.body));
    // In the order the check reads them: by state, then number.
    expect(body.changes.map((c) => [c.license, c.field, c.from, c.to])).toEqual([
      [REMOVED.license, "listing", "listed", "no longer listed"],
      [MOVED.license, "expires", "2016-02-28", "2018-02-28"],
    ]);

    // One email naming both changes; beside it, the day's digest, which carries the record of checks' newest hash.
    const naming = () => smtp.mails.filter((m) => m.text.includes(MOVED.license));
    await expect.poll(() => naming().length, { timeout: 15_000 }).toBe(1);
    const [mail] = naming();
    expect(mail!.to).toBe("compliance@example.com");
    const digests = smtp.mails.filter((m) => m.text.includes("Record of checks:"));
    expect(digests).toHaveLength(1);
    expect(digests[0]!.text).toMatch(/Record of checks: [\d,]+ entries, newest hash [0-9a-f]{64}/);
    expect(mail!.text).toContain(`NY ${MOVED.license} · ${MOVED.name}`);
    expect(mail!.text).toContain(`NY ${REMOVED.license} · ${REMOVED.name}`);
    expect(mail!.html).toContain(`/license/ny/${REMOVED.license}`);
    expect(hook.received).toHaveLength(1);
  } finally {
    await Promise.all(servers.map(stop));
    await hook.close();
    await smtp.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
