import { z } from "zod/mini";
import { ProblemSchema } from "../contract/problem.ts";
import { ApiError, kindOfStatus, parseRetryAfter } from "./api-error.ts";

/** GET a same-origin path and parse the body with the contract; every failure becomes an ApiError. */
export async function fetchJson<S extends z.core.$ZodType>(
  path: string,
  schema: S,
  { signal }: { signal?: AbortSignal } = {},
): Promise<z.infer<S>> {
  const response = await request(path, { headers: { Accept: "application/json" }, signal });
  return parseBody(path, response, schema, signal);
}

/**
 * A write to a same-origin path: `body` as JSON when there is one, the answer parsed with `schema`, or
 * nothing read when `schema` is null (a 204). Failures are ApiErrors, as for fetchJson.
 */
export async function sendJson<S extends z.core.$ZodType>(
  method: "POST" | "PUT" | "PATCH" | "DELETE",
  path: string,
  body: unknown,
  schema: S,
): Promise<z.infer<S>>;
export async function sendJson(
  method: "POST" | "PUT" | "PATCH" | "DELETE",
  path: string,
  body: unknown,
  schema: null,
): Promise<void>;
export async function sendJson<S extends z.core.$ZodType>(
  method: "POST" | "PUT" | "PATCH" | "DELETE",
  path: string,
  body: unknown,
  schema: S | null,
): Promise<z.infer<S> | void> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await request(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (schema !== null) return parseBody(path, response, schema);
}

/** The answer when it is a success; a failed connection or an error status as an ApiError. */
async function request(path: string, init: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw new ApiError("network", "The license service could not be reached.", {}, { cause: error });
  }
  if (!response.ok) throw await errorFromResponse(response);
  return response;
}

async function parseBody<S extends z.core.$ZodType>(
  path: string,
  response: Response,
  schema: S,
  signal?: AbortSignal,
): Promise<z.infer<S>> {
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    if (signal?.aborted) throw error;
    throw invalidResponse(path, response, error);
  }
  const parsed = z.safeParse(schema, body);
  if (!parsed.success) throw invalidResponse(path, response, parsed.error);
  return parsed.data;
}

async function errorFromResponse(response: Response): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => undefined);
  const problem = z.safeParse(ProblemSchema, body).data;
  const kind = kindOfStatus(response.status);
  return new ApiError(kind, problem?.detail || problem?.title || `HTTP ${response.status}`, {
    status: response.status,
    problem,
    retryAfter: kind === "rate-limited" ? parseRetryAfter(response.headers.get("Retry-After")) : undefined,
    requestId: problem?.request_id ?? response.headers.get("X-Request-Id") ?? undefined,
  });
}

function invalidResponse(path: string, response: Response, cause: unknown): ApiError {
  return new ApiError(
    "invalid-response",
    `The answer to ${path} did not match the contract.`,
    { status: response.status, requestId: response.headers.get("X-Request-Id") ?? undefined },
    { cause },
  );
}
