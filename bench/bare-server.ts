import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

// Child-process entry: the ceiling to compare with, node:http answering fixed JSON bodies by path.
// The parent passes real /v2 responses (BARE_BODIES: {"/license": "...", ...}), so the bytes match.
const bodies = new Map(
  Object.entries(JSON.parse(process.env.BARE_BODIES ?? "{}") as Record<string, string>).map(([path, body]) => [
    path,
    Buffer.from(body),
  ]),
);
const fallback = Buffer.from('{"data":null}');

const server = createServer((request, response) => {
  const body = bodies.get(request.url!.split("?")[0]!) ?? fallback;
  response.writeHead(200, { "content-type": "application/json", "content-length": body.length });
  response.end(body);
});
server.listen(0, "127.0.0.1", () => {
  process.send!({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
process.once("SIGTERM", () => server.close(() => process.exit(0)));
