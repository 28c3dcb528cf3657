import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyReply, FastifyRequest } from "fastify";
import { PROBLEM_CONTENT_TYPE, type Problem } from "../../src/contract/problem.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** What the route's body holds ("the rows"), for the problem a client gets when it is not JSON. */
    body?: string;
  }
}

/** The problems a client can tell apart by `type`, a stable identifier; the service's OpenAPI document lists them. */
export const PROBLEMS = {
  "bad-request": { status: 400, title: "Bad request" },
  unauthorized: { status: 401, title: "Missing or invalid API key" },
  "state-unavailable": { status: 404, title: "State not available" },
  "not-found": { status: 404, title: "Not found" },
  "method-not-allowed": { status: 405, title: "Method not allowed" },
  "unsupported-media-type": { status: 415, title: "Unsupported media type" },
  "rate-limited": { status: 429, title: "Too many requests" },
  "server-error": { status: 500, title: "Internal server error" },
  "service-unavailable": { status: 503, title: "Service unavailable" },
} as const;

export type ProblemKind = keyof typeof PROBLEMS;

export const problemType = (kind: ProblemKind) => `urn:license-lookup:problem:${kind}`;

/**
 * A problem by its name in PROBLEMS, or one told by its status alone: RFC 9457's `about:blank`, whose title is the
 * status's own phrase ("Not Found") unless the app's pages have a plainer one for it.
 */
export type ProblemHead = ProblemKind | number | { status: number; title: string };

/** Every error either server answers: RFC 9457 problem details, with the request id its log line carries. */
export function sendProblem(reply: FastifyReply, head: ProblemHead, detail: string): FastifyReply {
  const { type, title, status } =
    typeof head === "string"
      ? { type: problemType(head), ...PROBLEMS[head] }
      : { type: "about:blank", ...(typeof head === "number" ? { status: head, title: STATUS_CODES[head]! } : head) };
  const body: Problem = { type, title, status, detail, request_id: reply.request.id };
  return reply
    .code(status)
    .header("x-request-id", reply.request.id)
    .type(PROBLEM_CONTENT_TYPE)
    .send(JSON.stringify(body));
}

/** An error a client can do something about, thrown where it is found and answered in its own words. */
export class ProblemError extends Error {
  constructor(
    message: string,
    readonly head: ProblemHead,
  ) {
    super(message);
  }
}

/**
 * Both servers' error handler. A client's mistake (a body that is not JSON, too large, a ProblemError) is answered in
 * words it can act on; anything else is ours: logged with its cause under the request id, answered without it.
 */
export function answerError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof ProblemError) return sendProblem(reply, error.head, error.message);
  const { statusCode = 500, message = "" } = error as { statusCode?: number; message?: string };
  if (statusCode === 429) return sendProblem(reply, "rate-limited", message);
  if (statusCode === 415) {
    const body = request.routeOptions.config.body ?? "the body";
    return sendProblem(reply, "unsupported-media-type", `Send ${body} as JSON (Content-Type: application/json).`);
  }
  if (statusCode === 413) {
    const megabytes = Math.round(request.routeOptions.bodyLimit / 2 ** 20);
    return sendProblem(reply, "bad-request", `More than ${megabytes} MB cannot be sent at once.`);
  }
  if (statusCode < 500) return sendProblem(reply, "bad-request", message);
  request.log.error({ err: error }, "request failed");
  return sendProblem(reply, "server-error", `Something went wrong on our side; quote request id ${request.id}.`);
}

/** Fastify's `frameworkErrors`: a request it could not even route (a broken URL), before any hook has run. */
export function answerFrameworkError(error: Error, _request: FastifyRequest, reply: FastifyReply): void {
  sendProblem(reply, "bad-request", `the request could not be read: ${error.message}`);
}

/**
 * Fastify's `clientErrorHandler`: a request Node's parser refused (a raw tab or CR in its line or a header), answered
 * as a problem too, on the socket, since there is no request to reply to. What Fastify's own handler does otherwise.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const [status, detail] =
    error.code === "ERR_HTTP_REQUEST_TIMEOUT"
      ? [408, "The request did not arrive in time."]
      : error.code === "HPE_HEADER_OVERFLOW"
        ? [431, "The request's headers are too large."]
        : [400, "The request could not be read: its line or a header holds characters HTTP does not allow."];
  const body = JSON.stringify({
    type: status === 400 ? problemType("bad-request") : "about:blank",
    title: status === 400 ? PROBLEMS["bad-request"].title : STATUS_CODES[status]!,
    status,
    detail,
  } satisfies Problem);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

export function answerNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendProblem(reply, "not-found", `There is nothing at ${request.url.split("?")[0]}.`);
}
