import type pg from "pg";
import { ownConnection, type ConnectionTarget } from "./own-connection.ts";

export interface ListenHandlers {
  /** Each notification on the channel, with its payload. */
  onNotification(payload: string): void;
  /**
   * Each time the LISTEN begins: the first time, and after each reconnection (`afterOutage`). Nothing announced
   * while it was away is heard: this is the time to look for it.
   */
  onListening(afterOutage: boolean): void;
  /** Once an outage: the connection was lost, or could not be made; it is tried again until it is back. */
  onLost?(error: Error): void;
}

export interface Listener {
  /** Stops listening and ends the connection; nothing is called after it resolves. */
  close(): Promise<void>;
}

// One backoff for every listener: soon after a blip, less often while PostgreSQL stays away. Each wait is drawn
// from its upper half at random, so that a restarted server is not met by every node at the same instant.
const FIRST_RETRY_MS = 1_000;
const LONGEST_RETRY_MS = 30_000;

/** The wait before the next try, after `failures` tries in a row that failed (the first: 1). */
export function retryDelay(failures: number, random = Math.random()): number {
  const ceiling = Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** (failures - 1));
  return ceiling * (0.5 + random / 2);
}

/**
 * LISTENs on `channel` on a connection of its own, and reconnects whenever that connection is lost: a notification
 * costs nothing to wait for, and is lost only while the connection is, which `onListening` then makes up for.
 */
export function listen(target: ConnectionTarget, channel: string, handlers: ListenHandlers): Listener {
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  // Tries in a row that failed; 0 while listening.
  let failures = 0;

  const connect = async () => {
    const next = ownConnection(target);
    client = next;
    const lost = (error = new Error("connection ended")) => {
      if (closed || client !== next) return;
      client = null;
      void next.end().catch(() => {});
      if (failures === 0) handlers.onLost?.(error);
      failures += 1;
      retry = setTimeout(() => void connect(), retryDelay(failures)).unref();
    };
    next.on("error", lost);
    next.on("end", () => lost());
    next.on("notification", (message) => {
      if (!closed && message.channel === channel) handlers.onNotification(message.payload ?? "");
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${next.escapeIdentifier(channel)}`);
    } catch (error) {
      lost(error as Error);
      return;
    }
    if (closed || client !== next) return;
    const afterOutage = failures > 0;
    failures = 0;
    handlers.onListening(afterOutage);
  };
  void connect();

  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      const last = client;
      client = null;
      await last?.end().catch(() => {});
    },
  };
}
