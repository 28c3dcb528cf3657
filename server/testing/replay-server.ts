import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** A misbehaviour the next request to a path meets, before the path is served as it should be. */
export type Fault =
  | { kind: "status"; status: number; retryAfter?: string }
  /** A web page with status 200, as a CDN challenge or a moved file's landing page answers. */
  | { kind: "html"; contentType?: string }
  /** The headers and the first `after` bytes, then nothing more. */
  | { kind: "stall"; after?: number }
  /** No answer at all. */
  | { kind: "silent" }
  /** Announces the whole length, sends `at` bytes, and closes the connection. */
  | { kind: "cut"; at: number }
  /** Closes the connection without a word. */
  | { kind: "reset" };

export interface Resource {
  body: string | Buffer;
  contentType?: string;
  etag?: string;
  lastModified?: string;
  headers?: Record<string, string>;
  /** One per request, in order; once used up the resource is served normally. */
  faults?: Fault[];
}

export interface ReplayedRequest {
  method: string;
  /** Path and query, as asked. */
  url: string;
  headers: IncomingHttpHeaders;
  at: number;
  /** What it was answered with: a status, or the fault's kind. */
  answer: number | Fault["kind"];
}

/**
 * Plays given files back at given paths on a loopback port, with validators (ETag, Last-Modified, 304) and
 * scripted faults, and keeps every request it saw. A path with a query matches before the bare path.
 */
export async function startReplayServer(resources: Record<string, Resource> = {}) {
  const served = new Map(Object.entries(resources).map(([path, resource]) => [path, { ...resource }]));
  const requests: ReplayedRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;

  const server = createServer((req, res) => {
    const url = req.url ?? "/";
    const resource = served.get(url) ?? served.get(url.split("?")[0] ?? url);
    const fault = resource?.faults?.shift();
    const seen: ReplayedRequest = { method: req.method ?? "GET", url, headers: req.headers, at: Date.now(), answer: 0 };
    requests.push(seen);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    // "finish" comes before the client can read the last byte, so a client that waits for it is never counted twice.
    let done = false;
    const settle = () => {
      if (!done) inFlight--;
      done = true;
    };
    res.on("finish", settle).on("close", settle);

    if (!resource) return answer(404, {}, "not found");
    const body = Buffer.from(resource.body);
    switch (fault?.kind) {
      case "status":
        return answer(
          fault.status,
          fault.retryAfter ? { "retry-after": fault.retryAfter } : {},
          `error ${fault.status}`,
        );
      case "html":
        return answer(
          200,
          { "content-type": fault.contentType ?? "text/html; charset=utf-8" },
          "<!DOCTYPE html>\n<html><head><title>Just a moment...</title></head><body>Checking your browser</body></html>",
        );
      case "stall":
        seen.answer = "stall";
        res.writeHead(200, { ...headersOf(resource), "content-length": body.length });
        res.write(body.subarray(0, fault.after ?? 0));
        return;
      case "silent":
        seen.answer = "silent";
        return;
      case "cut":
        seen.answer = "cut";
        res.writeHead(200, { ...headersOf(resource), "content-length": body.length });
        res.end(body.subarray(0, fault.at), () => req.socket.destroy());
        return;
      case "reset":
        seen.answer = "reset";
        req.socket.destroy();
        return;
    }
    if (notModified(req.headers, resource)) return answer(304, headersOf(resource));
    return answer(200, { ...headersOf(resource), "content-length": body.length }, body);

    function answer(status: number, headers: Record<string, string | number>, content?: string | Buffer) {
      if (seen.answer === 0) seen.answer = status;
      res.writeHead(status, headers);
      res.end(content);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    url: (path: string) => origin + path,
    requests,
    /** The requests to one path (query included when the path gives one). */
    requestsTo: (path: string) =>
      requests.filter((r) => r.url === path || (!path.includes("?") && r.url.split("?")[0] === path)),
    /** The most requests it was answering at once. */
    maxInFlight: () => maxInFlight,
    /** Serves another version of a file (or a new one) from the next request on. */
    serve: (path: string, resource: Resource) => void served.set(path, { ...resource }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function headersOf(resource: Resource): Record<string, string> {
  return {
    "content-type": resource.contentType ?? "application/octet-stream",
    ...(resource.etag ? { etag: resource.etag } : {}),
    ...(resource.lastModified ? { "last-modified": resource.lastModified } : {}),
    ...resource.headers,
  };
}

function notModified(headers: IncomingHttpHeaders, resource: Resource) {
  const ifNoneMatch = headers["if-none-match"];
  if (ifNoneMatch !== undefined) {
    return (
      resource.etag !== undefined && ifNoneMatch.split(",").some((tag) => [resource.etag, "*"].includes(tag.trim()))
    );
  }
  const since = headers["if-modified-since"];
  if (since === undefined || resource.lastModified === undefined) return false;
  return Date.parse(resource.lastModified) <= Date.parse(since);
}
