import { hostname } from "node:os";
import { DEFAULT_LEASE_SECONDS } from "../../jobs/job-queue.ts";
import type { WatchlistOptions } from "./watchlist.ts";

export const DEFAULT_CHECK_HOURS = 6;

/** The watchlist's settings from the environment (README's table); an error names the variable to fix. */
export function watchSettingsFromEnv(
  env: NodeJS.ProcessEnv,
  { service, appUrl }: Pick<WatchlistOptions, "service" | "appUrl">,
): Omit<WatchlistOptions, "state"> {
  const hours = env.WATCH_CHECK_HOURS?.trim() ? Number(env.WATCH_CHECK_HOURS) : DEFAULT_CHECK_HOURS;
  if (!Number.isFinite(hours) || hours < 0) {
    throw new Error(`WATCH_CHECK_HOURS must be a number of hours (0 for no schedule), not "${env.WATCH_CHECK_HOURS}"`);
  }
  const pace = env.WATCH_REQUESTS_PER_SECOND?.trim() ? Number(env.WATCH_REQUESTS_PER_SECOND) : undefined;
  if (pace !== undefined && !(pace > 0)) {
    throw new Error(`WATCH_REQUESTS_PER_SECOND must be above 0, not "${env.WATCH_REQUESTS_PER_SECOND}"`);
  }

  const lease = env.WATCH_JOB_LEASE_SECONDS?.trim() ? Number(env.WATCH_JOB_LEASE_SECONDS) : DEFAULT_LEASE_SECONDS;
  if (!Number.isInteger(lease) || lease < 2 || lease > 3600) {
    throw new Error(
      `WATCH_JOB_LEASE_SECONDS must be a whole number of seconds from 2 to 3600, not "${env.WATCH_JOB_LEASE_SECONDS}"`,
    );
  }

  const webhookUrl = env.WATCH_WEBHOOK_URL?.trim();
  const secret = env.WATCH_WEBHOOK_SECRET ?? "";
  if (webhookUrl && !/^https?:\/\//.test(webhookUrl)) {
    throw new Error(`WATCH_WEBHOOK_URL must be an http(s) URL, not "${webhookUrl}"`);
  }
  if (webhookUrl && !secret) {
    throw new Error("WATCH_WEBHOOK_URL is set but WATCH_WEBHOOK_SECRET is not: every webhook is signed with it");
  }

  const smtpUrl = env.SMTP_URL?.trim();
  const to = (env.WATCH_EMAIL_TO ?? "")
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean);
  if (smtpUrl && to.length === 0)
    throw new Error("SMTP_URL is set but WATCH_EMAIL_TO is not: say who gets the digests");
  if (!smtpUrl && to.length > 0)
    throw new Error("WATCH_EMAIL_TO is set but SMTP_URL is not: say which server sends mail");
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) {
    throw new Error(`SMTP_URL must be smtp://… or smtps://…, not "${smtpUrl}"`);
  }

  return {
    service: { ...service, requestsPerSecond: pace },
    appUrl: env.APP_URL?.trim() || env.WATCH_APP_URL?.trim() || appUrl,
    checkEveryMs: hours === 0 ? null : hours * 3_600_000,
    checkOnStart: hours !== 0,
    jobLeaseSeconds: lease,
    webhook: webhookUrl ? { url: webhookUrl, secret } : null,
    email: smtpUrl
      ? { smtpUrl, to, from: env.WATCH_EMAIL_FROM?.trim() || `License Lookup <license-lookup@${hostname()}>` }
      : null,
  };
}
