import type { FastifyReply } from "fastify";
import { PROBLEM_CONTENT_TYPE, type Problem } from "../../src/contract/problem.ts";

/** The problems the service can answer with; `type` is a stable identifier clients can switch on. */
export const PROBLEMS = {
  "bad-request": { status: 400, title: "Bad request" },
  unauthorized: { status: 401, title: "Missing or invalid API key" },
  "state-unavailable": { status: 404, title: "State not available" },
  "not-found": { status: 404, title: "Not found" },
  "method-not-allowed": { status: 405, title: "Method not allowed" },
  "rate-limited": { status: 429, title: "Too many requests" },
  "server-error": { status: 500, title: "Internal server error" },
  "service-unavailable": { status: 503, title: "Service unavailable" },
} as const;

export type ProblemKind = keyof typeof PROBLEMS;

export const problemType = (kind: ProblemKind) => `urn:license-lookup:problem:${kind}`;

export function problemBody(kind: ProblemKind, detail: string, requestId: string): Problem {
  const { status, title } = PROBLEMS[kind];
  return { type: problemType(kind), title, status, detail, request_id: requestId };
}

export function sendProblem(reply: FastifyReply, kind: ProblemKind, detail: string): FastifyReply {
  const body = problemBody(kind, detail, reply.request.id);
  return reply.code(body.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(body));
}
