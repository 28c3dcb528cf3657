/**
 * `/v2` requests over one WebSocket to the app's own server (`/api/socket`, `npm run serve`), with fetch's
 * signature: Chromium spends some 4 ms of each fetch on its own (a URL loader, its checks, the cache) against
 * about 1 ms a message, and a search goes out at every keystroke (bench:ui). The answer comes back as a
 * Response, so it is read and checked as any other. Where there is no socket (the dev server, a socket not
 * open yet or closed, a browser without WebSocket), the request goes by fetch: never slower than without it.
 */

/** A page's message: the path and query of a GET under /v2. The server answers with the same id. */
interface SocketAnswer {
  id: number;
  status: number;
  headers: Record<string, string>;
  body: string;
}

interface Pending {
  path: string;
  init: RequestInit;
  resolve: (response: Response | Promise<Response>) => void;
}

export type Transport = (path: string, init: RequestInit) => Promise<Response>;

export interface SocketTransportOptions {
  /** ws:// or wss:// URL of the app server's socket. */
  url: string;
  WebSocket: typeof globalThis.WebSocket;
  fetch: Transport;
  /** After the socket closes, how long before it is opened again: doubled at each failure in a row, up to 30 s. */
  retryMs?: number;
}

export function createSocketTransport({ url, WebSocket, fetch, retryMs = 1000 }: SocketTransportOptions) {
  let socket: WebSocket | null = null;
  let nextId = 1;
  let failures = 0;
  let retryAt = 0;
  const pending = new Map<number, Pending>();

  function open(): void {
    if (socket || Date.now() < retryAt) return;
    let ws: WebSocket;
    try {
      ws = new WebSocket(url);
    } catch {
      return;
    }
    socket = ws;
    ws.onopen = () => {
      failures = 0;
    };
    // A socket that cannot open closes too: onclose below says what then.
    ws.onerror = () => {};
    ws.onmessage = (event: MessageEvent) => {
      const answer = parseAnswer(event.data);
      const waiting = answer && pending.get(answer.id);
      if (!answer || !waiting) return;
      pending.delete(answer.id);
      waiting.resolve(new Response(answer.body, { status: answer.status, headers: answer.headers }));
    };
    ws.onclose = () => {
      socket = null;
      failures += 1;
      retryAt = Date.now() + Math.min(30_000, retryMs * 2 ** (failures - 1));
      // What was asked and not answered is asked again by fetch: a closed socket loses no search.
      for (const { path, init, resolve } of pending.values()) resolve(fetch(path, init));
      pending.clear();
    };
  }

  /** The GET of `path`, over the socket when it is open, else by fetch. */
  function request(path: string, init: RequestInit = {}): Promise<Response> {
    open();
    const ws = socket;
    const signal = init.signal;
    if (!ws || ws.readyState !== WebSocket.OPEN || (init.method ?? "GET") !== "GET") return fetch(path, init);
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    const id = nextId++;
    return new Promise<Response>((resolve, reject) => {
      pending.set(id, { path, init, resolve });
      signal?.addEventListener(
        "abort",
        () => {
          if (pending.delete(id)) reject(signal.reason as Error);
        },
        { once: true },
      );
      ws.send(JSON.stringify({ id, path }));
    });
  }

  return {
    request,
    /** Opens the socket ahead of the first request, so that the first keystroke finds it open. */
    open,
    close(): void {
      socket?.close();
    },
  };
}

function parseAnswer(data: unknown): SocketAnswer | null {
  if (typeof data !== "string") return null;
  try {
    const answer = JSON.parse(data) as SocketAnswer;
    return typeof answer.id === "number" && typeof answer.status === "number" && typeof answer.body === "string"
      ? answer
      : null;
  } catch {
    return null;
  }
}

/**
 * The app's transport for searches: the socket in the built app (`npm run serve` has one), plain fetch in the
 * dev server and in component tests.
 */
export const searchTransport = ((): { request: Transport; open: () => void } => {
  if (!import.meta.env.PROD || typeof WebSocket === "undefined" || typeof location === "undefined") {
    return { request: (path, init) => fetch(path, init), open: () => {} };
  }
  const url = new URL("/api/socket", location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return createSocketTransport({ url: url.href, WebSocket, fetch: (path, init) => fetch(path, init) });
})();
