import type { AddressInfo } from "node:net";
import { startServer } from "../server/service/main.ts";
import { LIMIT_OUT_OF_REACH } from "./limit-out-of-reach.ts";

// Child-process entry: the real v2 service on a free port, as `npm run api` runs it (request log
// on; the parent discards it), with the per-key rate limit raised out of reach so one key can
// saturate it while the limiter's own cost stays in the figures.
const { app } = await startServer({
  db: process.argv[2]!,
  port: 0,
  host: "127.0.0.1",
  log: true,
  rateLimit: LIMIT_OUT_OF_REACH,
});
const { port } = app.server.address() as AddressInfo;
process.send!({ url: `http://127.0.0.1:${port}` });
process.once("SIGTERM", () => void app.close().then(() => process.exit(0)));
