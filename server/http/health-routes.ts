import type { FastifyInstance } from "fastify";
import { reachable, type StateDb } from "../db/state-db.ts";
import { sendProblem } from "./problem.ts";

/** The reasons a node should not be sent requests yet (empty: ready). */
export type Readiness = () => Promise<string[]>;

// A balancer asks every few seconds: a check that hangs (a blackholed database) answers "not ready" instead.
export const READINESS_TIMEOUT_MS = 2000;

/**
 * `/healthz` (the process answers) and `/readyz` (it can serve: 503 naming what it waits for), for a load
 * balancer: public, outside the rate limit, never in the OpenAPI document.
 */
export function healthRoutes(app: FastifyInstance, readiness: Readiness) {
  const config = { public: true };
  app.get("/healthz", { config }, (_request, reply) => reply.send({ status: "ok" }));
  app.get("/readyz", { config }, async (_request, reply) => {
    const reasons = await readinessWithin(readiness, READINESS_TIMEOUT_MS);
    if (reasons.length === 0) return reply.send({ status: "ready" });
    return sendProblem(reply, "service-unavailable", `Not ready: ${reasons.join("; ")}.`);
  });
}

/** The reasons, or one saying the checks took too long. */
export async function readinessWithin(readiness: Readiness, timeoutMs: number): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string[]>((resolve) => {
    timer = setTimeout(() => resolve([`its readiness checks took more than ${timeoutMs / 1000} s`]), timeoutMs);
  });
  try {
    return await Promise.race([readiness().catch((error: Error) => [error.message]), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A readiness check of a database: its reason for "not ready" while it does not answer. */
export async function unreachableReason(state: StateDb, what: string): Promise<string[]> {
  return (await reachable(state)) ? [] : [`${what} (${state.label}) is unreachable`];
}
