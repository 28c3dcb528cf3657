import { z } from "zod/mini";
import { ProblemSchema } from "../contract/problem.ts";
import { ApiError, kindOfStatus, parseRetryAfter } from "./api-error.ts";

/** GET a same-origin path and parse the body with the contract; every failure becomes an ApiError. */
export async function fetchJson<S extends z.core.$ZodType>(
  path: string,
  schema: S,
  { signal }: { signal?: AbortSignal } = {},
): Promise<z.infer<S>> {
  let response: Response;
  try {
    response = await fetch(path, { headers: { Accept: "application/json" }, signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError("network", "The license service could not be reached.", {}, { cause: error });
  }
  if (!response.ok) throw await errorFromResponse(response);

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
