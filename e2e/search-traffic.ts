import type { Page } from "@playwright/test";

/**
 * The built app sends a search by its socket to the app server (`/api/socket`) once it is open, by fetch before
 * (src/api/socket-transport.ts): which one a given search takes depends on timing. What a spec says of searches
 * holds for both, through these.
 */

/** An answer a spec gives in the service's place: a fault such as a 429. */
export interface FakeAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Each `/v2` answer the page received: its path (no query), its status, and the way it came. */
export interface ApiExchange {
  path: string;
  status: number;
  via: "http" | "socket";
  /** The messages of a socket exchange as sent and received, to be searched for what must never be there. */
  frames: string[];
}

/** Records every `/v2` answer the page receives from now on, over HTTP or its socket. */
export function recordApiTraffic(page: Page): ApiExchange[] {
  const seen: ApiExchange[] = [];
  page.on("response", (response) => {
    const path = new URL(response.url()).pathname;
    if (path.startsWith("/v2/")) seen.push({ path, status: response.status(), via: "http", frames: [] });
  });
  page.on("websocket", (socket) => {
    const asked = new Map<number, string>();
    socket.on("framesent", ({ payload }) => {
      const { id } = JSON.parse(String(payload)) as { id: number };
      asked.set(id, String(payload));
    });
    socket.on("framereceived", ({ payload }) => {
      const { id, status } = JSON.parse(String(payload)) as { id: number; status: number };
      const sent = asked.get(id);
      if (sent === undefined) return;
      const path = new URL((JSON.parse(sent) as { path: string }).path, "http://app").pathname;
      seen.push({ path, status, via: "socket", frames: [sent, String(payload)] });
    });
  });
  return seen;
}

/**
 * The page's socket requests pass through `answer` first: a FakeAnswer it returns is the answer, else (undefined)
 * the request goes on to the app server as sent. Its delays delay the request.
 */
export async function routeSocketSearches(page: Page, answer: (path: string) => Promise<FakeAnswer | undefined>) {
  await page.routeWebSocket(/\/api\/socket$/, (socket) => {
    const server = socket.connectToServer();
    socket.onMessage(async (message) => {
      const { id, path } = JSON.parse(String(message)) as { id: number; path: string };
      const fake = await answer(path);
      if (fake) socket.send(JSON.stringify({ id, ...fake }));
      else server.send(message);
    });
  });
}

/** Searches, by either way, pass through `answer` first (see routeSocketSearches). */
export async function routeSearches(page: Page, answer: (path: string) => Promise<FakeAnswer | undefined>) {
  await page.route("**/v2/search*", async (route) => {
    const url = new URL(route.request().url());
    const fake = await answer(url.pathname + url.search);
    if (fake) await route.fulfill(fake);
    else await route.fallback();
  });
  await routeSocketSearches(page, answer);
}
