import pg from "pg";

/** A postgres:// URL, or the pool whose settings a connection of its own copies. */
export type ConnectionTarget = string | pg.Pool;

/**
 * A connection outside any pool, for what lasts as long as a session does (a lock held, a LISTEN): the pool's
 * queries never wait behind it, and it ends when its holder does. TCP keepalive lets a holder whose peer vanished
 * (a network cut, not a closed socket) find its connection gone rather than wait on it for ever.
 */
export function ownConnection(target: ConnectionTarget): pg.Client {
  const config = typeof target === "string" ? { connectionString: target } : target.options;
  const client = new pg.Client({ ...config, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
  // Its errors are its queries' (or its owner's listener's) to report: an unheard one would end the process.
  client.on("error", () => {});
  return client;
}
