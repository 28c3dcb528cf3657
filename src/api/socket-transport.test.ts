import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import { createSocketTransport } from "./socket-transport.ts";

/** A stand-in for the app server's socket: answers each `{id, path}` as `reply` says (never, for null). */
let server: WebSocketServer;
let url: string;
let reply: (message: { id: number; path: string }) => object | null;
const fetched: string[] = [];
const fetchStub = vi.fn((path: string) => {
  fetched.push(path);
  return Promise.resolve(new Response(JSON.stringify({ by: "fetch" }), { status: 200 }));
});

beforeEach(async () => {
  fetched.length = 0;
  reply = ({ id, path }) => ({
    id,
    status: 200,
    headers: { "content-type": "application/json" },
    body: `{"by":"socket","path":"${path}"}`,
  });
  server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise((resolve) => server.once("listening", resolve));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/api/socket`;
  server.on("connection", (socket) =>
    socket.on("message", (data: Buffer) => {
      const answer = reply(JSON.parse(data.toString("utf8")) as { id: number; path: string });
      if (answer) socket.send(JSON.stringify(answer));
    }),
  );
});
afterEach(async () => {
  for (const client of server.clients) client.terminate();
  await new Promise((resolve) => server.close(resolve));
});

function transport() {
  return createSocketTransport({
    url,
    WebSocket: WebSocket as unknown as typeof globalThis.WebSocket,
    fetch: fetchStub,
  });
}
/** Open on both sides: a request is answered over the socket. */
async function overSocket(t: ReturnType<typeof transport>) {
  t.open();
  await vi.waitFor(async () => expect(await (await t.request("/v2/states")).json()).toMatchObject({ by: "socket" }));
  fetched.length = 0;
}

describe("searches over the app's socket", () => {
  it("go by fetch until the socket is open, then over it, each answer read as a Response", async () => {
    const t = transport();
    t.open();
    expect(await (await t.request("/v2/search?state=ny&name=a")).json()).toEqual({ by: "fetch" });
    await overSocket(t);
    const answer = await t.request("/v2/search?state=ny&name=ab");
    expect(await answer.json()).toEqual({ by: "socket", path: "/v2/search?state=ny&name=ab" });
    expect(answer.headers.get("content-type")).toBe("application/json");
    reply = ({ id }) => ({ id, status: 429, headers: { "retry-after": "7" }, body: '{"status":429}' });
    const limited = await t.request("/v2/search?state=ny&name=abc");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("7");
    t.close();
  });

  it("ask again by fetch what a closing socket left unanswered: no search is lost", async () => {
    const t = transport();
    await overSocket(t);
    reply = () => null;
    const pendingAnswer = t.request("/v2/search?state=ny&name=dead");
    expect(fetched).toEqual([]);
    for (const client of server.clients) client.terminate();
    const answer = await pendingAnswer;
    expect(await answer.json()).toEqual({ by: "fetch" });
    expect(fetched).toContain("/v2/search?state=ny&name=dead");
  });

  it("drop an answer asked for no longer: an aborted search rejects, as fetch's does", async () => {
    const t = transport();
    await overSocket(t);
    reply = () => null;
    const probe = new AbortController();
    const asked = t.request("/v2/search?state=ny&name=x", { signal: probe.signal });
    probe.abort(new DOMException("superseded", "AbortError"));
    await expect(asked).rejects.toThrow("superseded");
    expect(fetched).toEqual([]);
    t.close();
  });
});
