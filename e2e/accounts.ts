import { spawnSync } from "node:child_process";
import type { Page } from "@playwright/test";

/** The password every e2e account is given: long enough for the app's rule of 12 characters. */
export const E2E_PASSWORD = "e2e password of length";

/** `npm run users -- add` on an app's database, as an administrator would, with the password on standard input. */
export function addUser(appDb: string, email: string, role: "admin" | "member" | "auditor", name?: string): void {
  const args = ["--silent", "run", "users", "--", "add", email, "--role", role, "--password-stdin"];
  if (name) args.push("--name", name);
  const run = spawnSync("npm", args, {
    input: `${E2E_PASSWORD}\n`,
    encoding: "utf8",
    env: { ...process.env, APP_DB: appDb },
  });
  if (run.status !== 0)
    throw new Error(`npm run users -- add ${email} failed (${run.status}):\n${run.stderr}${run.stdout}`);
}

/** The app's session cookie for `email`, signed in through the app's own route. */
export async function sessionCookie(appUrl: string, email: string, cookieName: string) {
  const response = await fetch(`${appUrl}/api/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: E2E_PASSWORD }),
  });
  if (!response.ok) throw new Error(`signing in ${email} at ${appUrl}: HTTP ${response.status}`);
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith(`${cookieName}=`));
  if (!cookie) throw new Error(`signing in ${email} at ${appUrl} set no ${cookieName} cookie`);
  return {
    name: cookieName,
    value: cookie.slice(cookieName.length + 1).split(";", 1)[0]!,
    domain: new URL(appUrl).hostname,
    path: "/",
    expires: -1,
    httpOnly: true,
    secure: false,
    sameSite: "Lax" as const,
  };
}

/** Signs the page's browser in as `email`, as the sign-in page would (its cookies are the context's). */
export async function signInAs(page: Page, appUrl: string, email: string): Promise<void> {
  const response = await page.request.post(`${appUrl}/api/sign-in`, { data: { email, password: E2E_PASSWORD } });
  if (!response.ok()) throw new Error(`signing in ${email} at ${appUrl}: HTTP ${response.status()}`);
}
