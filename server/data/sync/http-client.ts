import { createHash, randomBytes } from "node:crypto";
import { open, rename, rm, stat } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import packageJson from "../../../package.json" with { type: "json" };
import { sha256Of } from "../readers/source-file.ts";
import {
  DownloadError,
  DownloadTimeout,
  HtmlInsteadOfData,
  HttpStatusError,
  NetworkError,
  TruncatedDownload,
} from "./download-errors.ts";

export interface DownloadOptions {
  /** The file the body ends in: written to a temporary file beside it, renamed only once whole and checked. */
  to: string;
  /** Requests with one key run one at a time, retries and their waits included. Default: the URL's host. */
  agency?: string;
  /** What the last download answered: the server may then say 304, "not modified". */
  validators?: { etag?: string; lastModified?: string };
  /** Default: env SYNC_USER_AGENT, else LicenseLookup/<version> with a contact. */
  userAgent?: string;
  headers?: Record<string, string>;
  /** The longest silence: before the answer begins, and between two pieces of its body. Default 30 s. */
  idleTimeoutMs?: number;
  /** The whole download, retries and waits included. Default 10 min. */
  totalTimeoutMs?: number;
  /** Tries in all, on 429, 5xx, a broken connection or a silence. Default 4. */
  attempts?: number;
  /** The first wait between tries; it doubles each time, with jitter. Default 1 s. */
  backoffMs?: number;
  /** The longest wait between tries; a Retry-After asking for more ends the download instead. Default 2 min. */
  maxWaitMs?: number;
  /** An index page is HTML; a data file never is. Default false. */
  allowHtml?: boolean;
  /**
   * A web page or a cut body is kept at `<to>.rejected` (and named in the error's `rejected`), so that a refusal
   * can point at what came. Default false: nothing is kept.
   */
  keepRejected?: boolean;
}

export type DownloadResult =
  | { kind: "not-modified"; url: string; attempts: number }
  | {
      kind: "downloaded";
      url: string;
      file: string;
      sha256: string;
      bytes: number;
      contentType?: string;
      etag?: string;
      lastModified?: string;
      attempts: number;
    };

type AttemptResult = DistributiveOmit<DownloadResult, "attempts">;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export function defaultUserAgent(env: NodeJS.ProcessEnv = process.env) {
  return env.SYNC_USER_AGENT || `LicenseLookup/${packageJson.version} (+contact: set SYNC_USER_AGENT)`;
}

/**
 * Fetches `url` into `options.to` politely (one request at a time per agency, backoff, Retry-After) and
 * keeps it only when whole: its length as announced, and no web page where data was expected.
 */
export async function download(url: string, options: DownloadOptions): Promise<DownloadResult> {
  return inTurn(options.agency ?? new URL(url).host, () => downloadNow(url, options));
}

/** The same path and query at another origin: a local mirror, a proxy, a test's replay server. */
export function withOrigin(url: string, origin: string | undefined): string {
  if (!origin) return url;
  const target = new URL(origin);
  if (target.pathname !== "/" || target.search) {
    throw new Error(`--origin ${origin}: give a scheme and host only (the agency's path and query are kept).`);
  }
  const moved = new URL(url);
  moved.protocol = target.protocol;
  moved.hostname = target.hostname;
  moved.port = target.port;
  return moved.href;
}

const queues = new Map<string, Promise<void>>();

function inTurn<T>(key: string, run: () => Promise<T>): Promise<T> {
  const result = (queues.get(key) ?? Promise.resolve()).then(run);
  const settled = result.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return result;
}

async function downloadNow(url: string, options: DownloadOptions): Promise<DownloadResult> {
  const totalMs = options.totalTimeoutMs ?? 600_000;
  const attempts = options.attempts ?? 4;
  const maxWaitMs = options.maxWaitMs ?? 120_000;
  const deadline = AbortSignal.timeout(totalMs);
  const endsAt = Date.now() + totalMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return { ...(await attemptOnce(url, options, deadline, totalMs)), attempts: attempt };
    } catch (error) {
      const wait = retryWait(error, attempt, options.backoffMs ?? 1000);
      if (wait === undefined || attempt >= attempts || wait > maxWaitMs || Date.now() + wait >= endsAt) throw error;
      await sleep(wait, undefined, { signal: deadline }).catch(() => {
        throw new DownloadTimeout(url, "total", totalMs);
      });
    }
  }
}

/** How long to wait before trying again, or undefined when another try would get the same answer. */
function retryWait(error: unknown, attempt: number, backoffMs: number): number | undefined {
  if (error instanceof HttpStatusError) {
    if (error.status !== 429 && error.status < 500) return undefined;
    if (error.retryAfterMs !== undefined) return error.retryAfterMs;
  } else if (error instanceof DownloadTimeout) {
    if (error.limit === "total") return undefined;
  } else if (!(error instanceof NetworkError || error instanceof TruncatedDownload)) {
    return undefined;
  }
  return Math.round(backoffMs * 2 ** (attempt - 1) * (0.5 + Math.random() / 2));
}

async function attemptOnce(
  url: string,
  options: DownloadOptions,
  deadline: AbortSignal,
  totalMs: number,
): Promise<AttemptResult> {
  const idleMs = options.idleTimeoutMs ?? 30_000;
  const idle = new AbortController();
  let idleTimer: NodeJS.Timeout | undefined;
  const stillAlive = () => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => idle.abort(), idleMs);
  };
  const signal = AbortSignal.any([deadline, idle.signal]);
  const failure = (error: unknown, received?: number, expected?: number) => {
    if (error instanceof DownloadError) return error;
    if (deadline.aborted) return new DownloadTimeout(url, "total", totalMs);
    if (idle.signal.aborted) return new DownloadTimeout(url, "idle", idleMs);
    if (received === undefined) return new NetworkError(url, error);
    return new TruncatedDownload(url, received, expected, { cause: error });
  };

  stillAlive();
  try {
    const response = await fetch(url, { headers: requestHeaders(options), signal }).catch((error: unknown) => {
      throw failure(error);
    });
    stillAlive();
    if (response.status === 304) {
      await response.body?.cancel();
      return { kind: "not-modified", url };
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw statusError(url, response);
    }
    const contentType = response.headers.get("content-type") ?? undefined;
    const htmlByType =
      !options.allowHtml && contentType !== undefined && /^\s*(text\/html|application\/xhtml)/i.test(contentType);
    if (htmlByType && !options.keepRejected) {
      await response.body?.cancel();
      throw new HtmlInsteadOfData(url);
    }
    // A compressed answer announces the compressed length; fetch hands over the bytes decompressed.
    const announced = response.headers.get("content-encoding") ? null : response.headers.get("content-length");
    const expected = announced === null ? undefined : Number(announced);

    const partial = `${options.to}.${randomBytes(6).toString("hex")}.part`;
    const hash = createHash("sha256");
    let bytes = 0;
    let head = Buffer.alloc(0);
    // A body broken off, or a web page refused, is kept as far as it came.
    let html = false;
    const refuseHtml = () => {
      if (!options.keepRejected) throw new HtmlInsteadOfData(url);
      html = true;
    };
    try {
      // A body stream that breaks off drops the chunks still queued in it, so none may wait there: reading starts
      // before the file is open, and goes as fast as chunks come, written in order behind.
      const reader = response.body?.getReader();
      const opening = open(partial, "w");
      let broken: { error: unknown } | undefined;
      let writing: Promise<unknown> = opening;
      try {
        for (;;) {
          const next = reader ? await reader.read() : { done: true as const, value: undefined };
          if (next.done) break;
          const chunk = next.value;
          stillAlive();
          if (!options.allowHtml && head.length < 512) {
            head = Buffer.concat([head, chunk]);
            if (head.length >= 512 && startsLikeHtml(head)) refuseHtml();
          }
          hash.update(chunk);
          bytes += chunk.length;
          writing = writing.then(async () => (await opening).write(chunk));
        }
      } catch (error) {
        if (!options.keepRejected || error instanceof HtmlInsteadOfData) {
          // Given up on: the rest of the body is not waited for.
          await reader?.cancel().catch(() => undefined);
          throw error;
        }
        broken = { error };
      } finally {
        await writing.finally(async () => (await opening).close());
      }
      if (broken) throw broken.error;
      if (htmlByType || (!options.allowHtml && startsLikeHtml(head))) refuseHtml();
      if (html) throw new HtmlInsteadOfData(url);
      if (expected !== undefined && bytes !== expected) throw new TruncatedDownload(url, bytes, expected);
      await rename(partial, options.to);
    } catch (error) {
      const failed = failure(error, bytes, expected);
      if (options.keepRejected && (failed instanceof HtmlInsteadOfData || failed instanceof TruncatedDownload)) {
        const file = `${options.to}.rejected`;
        const kept = await rename(partial, file).then(
          () => true,
          () => false,
        );
        // What reached the disk: the bytes that came, as they came.
        if (kept) failed.rejected = { file, sha256: await sha256Of(file), bytes: (await stat(file)).size };
      } else await rm(partial, { force: true });
      throw failed;
    }
    return {
      kind: "downloaded",
      url,
      file: options.to,
      sha256: hash.digest("hex"),
      bytes,
      contentType,
      etag: response.headers.get("etag") ?? undefined,
      lastModified: response.headers.get("last-modified") ?? undefined,
    };
  } finally {
    clearTimeout(idleTimer);
  }
}

function requestHeaders(options: DownloadOptions): Record<string, string> {
  const headers: Record<string, string> = {
    "user-agent": options.userAgent ?? defaultUserAgent(),
    // The archive keeps the bytes as published, and their length is what Content-Length announces.
    "accept-encoding": "identity",
    ...options.headers,
  };
  if (options.validators?.etag) headers["if-none-match"] = options.validators.etag;
  if (options.validators?.lastModified) headers["if-modified-since"] = options.validators.lastModified;
  return headers;
}

function statusError(url: string, response: Response) {
  const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"));
  const detail = [
    response.statusText,
    retryAfterMs === undefined ? "" : `it asks us to wait ${Math.ceil(retryAfterMs / 1000)} s before trying again`,
  ]
    .filter(Boolean)
    .join("; ");
  return new HttpStatusError(url, response.status, detail, retryAfterMs);
}

/** Retry-After is either seconds or an HTTP date (RFC 9110 10.2.3). */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function startsLikeHtml(head: Buffer) {
  const text = head
    .toString("utf8")
    .replace(/^\uFEFF/, "")
    .trimStart()
    .toLowerCase();
  return text.startsWith("<!doctype") || text.startsWith("<html");
}
