import { createHmac } from "node:crypto";
import nodemailer from "nodemailer";
import type { EmailPayload } from "./watch-alerts.ts";
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

const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Sends what the outbox holds, in the background: a failure is retried with a doubling wait, a
 * restart finds what is still due in the file. Nothing here is awaited by a check.
 */
export function createDeliverer({
  store,
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
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let again = false;
  let closed = false;

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

  async function drain() {
    do {
      again = false;
      for (const delivery of store.due(now().toISOString())) {
        if (closed) return;
        try {
          await send(delivery);
          store.delivered(delivery.id, now().toISOString());
          log(`watchlist: delivered the ${delivery.kind} (${delivery.subject})`);
        } catch (error) {
          const attempts = delivery.attempts + 1;
          const wait = Math.min(retryBaseMs * 2 ** (attempts - 1), 3_600_000);
          const retryAt = attempts >= maxAttempts ? null : new Date(now().getTime() + wait).toISOString();
          const reason = (error as Error).message;
          store.failed(delivery.id, reason, retryAt);
          log(
            `watchlist: the ${delivery.kind} (${delivery.subject}) failed: ${reason}; ` +
              (retryAt ? `retrying at ${retryAt}` : `given up after ${attempts} attempts`),
          );
        }
      }
    } while (again && !closed);
  }

  function schedule() {
    clearTimeout(timer);
    if (closed) return;
    const next = store.nextDue();
    if (next === null) return;
    const wait = Math.min(Math.max(0, Date.parse(next) - now().getTime()), MAX_TIMER_MS);
    timer = setTimeout(kick, wait);
  }

  /** Sends what is due now, and sets a timer for what is due later. */
  function kick() {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = drain()
      .catch((error: unknown) => log(`watchlist: deliveries stopped: ${(error as Error).message}`))
      .finally(() => {
        running = null;
        schedule();
      });
  }

  return {
    kick,
    /** Settles once what is being sent now is sent (tests, and a clean stop). */
    idle: async () => {
      while (running) await running;
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      await running;
      mailer?.close();
    },
  };
}

export type Deliverer = ReturnType<typeof createDeliverer>;
