import { createHmac } from "node:crypto";
import nodemailer from "nodemailer";
import type { EmailPayload } from "./watch-alerts.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import type { StoredDelivery, WatchStore } from "./watch-store.ts";

export interface WebhookSettings {
  url: string;
  /** Signs each body: `X-Watch-Signature: sha256=<hex HMAC-SHA256 of the raw body>`. */
  secret: string;
}

export interface EmailSettings {
  /** `smtp://user:pass@host:587` or `smtps://…:465`, as nodemailer reads it. */
  smtpUrl: string;
  to: string[];
  from: string;
}

export interface DelivererOptions {
  store: WatchStore;
  jobs: JobQueue;
  webhook: WebhookSettings | null;
  email: EmailSettings | null;
  /** The first retry's wait; each one after doubles it, up to an hour. */
  retryBaseMs?: number;
  /** Attempts before a delivery is given up (and shown as such on the watchlist). */
  maxAttempts?: number;
  timeoutMs?: number;
  now?: () => Date;
  log?: (message: string) => void;
}

export const SIGNATURE_HEADER = "x-watch-signature";
export const DELIVERY_HEADER = "x-watch-delivery";

export function signature(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/** The job that sends one delivery of the outbox (keyed by its id: one sender at a time). */
export const DELIVERY_JOB = "watchlist-delivery";

/**
 * Sends what the outbox holds, in the background, a job per delivery: a failure is retried with a doubling wait,
 * a restart (or another node) finds what is still due in the database. A sender claims its row first, for longer
 * than a send may take, so two nodes never send one row; a node that dies mid-send leaves a claim that lapses.
 * Nothing here is awaited by a check.
 */
export function createDeliverer({
  store,
  jobs,
  webhook,
  email,
  retryBaseMs = 30_000,
  maxAttempts = 12,
  timeoutMs = 10_000,
  now = () => new Date(),
  log = () => {},
}: DelivererOptions) {
  // nodemailer's own limits run to minutes: one send must end within a stop's grace, as a webhook does.
  const mailer = email
    ? nodemailer.createTransport({
        url: email.smtpUrl,
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs,
      })
    : null;
  const claimMs = 2 * timeoutMs + 5_000;

  async function send(delivery: StoredDelivery) {
    if (delivery.kind === "webhook") {
      if (!webhook) throw new Error("WATCH_WEBHOOK_URL is not set any more");
      const id = (JSON.parse(delivery.payload) as { delivery_id: string }).delivery_id;
      const response = await fetch(webhook.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "License-Lookup-Watchlist",
          [DELIVERY_HEADER]: id,
          [SIGNATURE_HEADER]: signature(webhook.secret, delivery.payload),
        },
        body: delivery.payload,
        redirect: "manual",
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body?.cancel();
      if (response.status < 200 || response.status > 299) throw new Error(`the webhook answered ${response.status}`);
      return;
    }
    if (!email || !mailer) throw new Error("SMTP_URL and WATCH_EMAIL_TO are not set any more");
    const { subject, text, html } = JSON.parse(delivery.payload) as EmailPayload;
    await mailer.sendMail({ from: email.from, to: email.to, subject, text, html });
  }

  /** Queues the job of a delivery, to run when it is due. */
  const queue = (id: number, dueAt: string | null) =>
    jobs.send(DELIVERY_JOB, String(id), { id }, { afterMs: dueAt ? Date.parse(dueAt) - now().getTime() : 0 });

  async function deliver({ id }: { id: number }) {
    const at = now();
    const delivery = await store.claim(id, at.toISOString(), new Date(at.getTime() + claimMs).toISOString());
    if (!delivery) {
      // Delivered, given up, or held by another sender: a claim that lapses (its node died) is tried again then.
      const due = await store.dueAt(id);
      if (due)
        await jobs.send(
          DELIVERY_JOB,
          String(id),
          { id },
          { afterMs: Math.max(1_000, Date.parse(due) - now().getTime()) },
        );
      return;
    }
    try {
      await send(delivery);
      await store.delivered(delivery.id, now().toISOString());
      log(`watchlist: delivered the ${delivery.kind} (${delivery.subject})`);
    } catch (error) {
      const attempts = delivery.attempts + 1;
      const wait = Math.min(retryBaseMs * 2 ** (attempts - 1), 3_600_000);
      const retryAt = attempts >= maxAttempts ? null : new Date(now().getTime() + wait).toISOString();
      const reason = (error as Error).message;
      await store.failed(delivery.id, reason, retryAt);
      log(
        `watchlist: the ${delivery.kind} (${delivery.subject}) failed: ${reason}; ` +
          (retryAt ? `retrying at ${retryAt}` : `given up after ${attempts} attempts`),
      );
      if (retryAt) await queue(delivery.id, retryAt);
    }
  }

  return {
    start: () => jobs.work(DELIVERY_JOB, deliver),
    /** Sends these new deliveries as soon as a node can. */
    queue: (ids: readonly number[]) => Promise.all(ids.map((id) => queue(id, null))),
    /** Queues every delivery still to make, each when it is due: after a restart, or a node lost between. */
    async sweep() {
      for (const { id, due } of await store.pending()) await queue(id, due);
    },
    close() {
      mailer?.close();
    },
  };
}

export type Deliverer = ReturnType<typeof createDeliverer>;
