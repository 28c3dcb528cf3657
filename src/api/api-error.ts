import type { Problem } from "../contract/problem.ts";

/** What went wrong, in the terms a person can act on. */
export type ApiErrorKind =
  "bad-request" | "unauthorized" | "unavailable" | "rate-limited" | "server" | "network" | "invalid-response";

export interface ApiErrorDetails {
  status?: number;
  problem?: Problem;
  /** Seconds to wait, from Retry-After on a 429. */
  retryAfter?: number;
  requestId?: string;
}

export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly kind: ApiErrorKind;
  readonly details: ApiErrorDetails;

  constructor(kind: ApiErrorKind, message: string, details: ApiErrorDetails = {}, options?: ErrorOptions) {
    super(message, options);
    this.kind = kind;
    this.details = details;
  }
}

export function kindOfStatus(status: number): ApiErrorKind {
  if (status === 401 || status === 403) return "unauthorized";
  if (status === 404) return "unavailable";
  if (status === 429) return "rate-limited";
  if (status >= 500) return "server";
  return "bad-request";
}

/** Retry-After is either delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The problem type our service answers a state outside the key with (server/http/problem.ts). */
export const STATE_UNAVAILABLE_PROBLEM = "urn:license-lookup:problem:state-unavailable";

/**
 * A 404 from one of our extension routes: a service without the extension has no such path. Our
 * service's "state outside the key" is a 404 too, and is not that: the page says the state is not covered.
 */
export function isMissingExtension(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.kind === "unavailable" &&
    error.details.problem?.type !== STATE_UNAVAILABLE_PROBLEM
  );
}

/**
 * Provenance is our extension: from a service without it (a 404) every entry is null, the licenses
 * are still shown, and their verdicts say the data's date is not given. Any other failure stands.
 */
export function nullsWithoutExtension(count: number) {
  return (error: unknown): { data: null[] } => {
    if (error instanceof ApiError && error.kind === "unavailable") return { data: new Array<null>(count).fill(null) };
    throw error;
  };
}

/** Only failures that may pass on their own are worth another try; 4xx and bad data are not. */
export function isTransient(error: unknown): error is ApiError {
  return error instanceof ApiError && (error.kind === "server" || error.kind === "network");
}
