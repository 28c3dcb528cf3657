import { ApiError } from "../api/api-error.ts";

export interface ErrorAdvice {
  title: string;
  body: string;
  /** Whether trying the same request again can help. */
  retry: boolean;
  /** Seconds after which the page tries again by itself: what a 429's Retry-After asks for. */
  retryIn?: number;
  /** A fault on the service's side: worth a line in the console with its request id. */
  report: boolean;
}

/** What to tell a person about a failed request, and the way forward. */
export function adviseOnError(error: unknown, stateLabel: string): ErrorAdvice {
  if (!(error instanceof ApiError)) {
    return {
      title: "Something went wrong",
      body: "The page hit an unexpected problem. Try again.",
      retry: true,
      report: true,
    };
  }
  const ref = error.details.requestId ? ` (request id ${error.details.requestId})` : "";
  switch (error.kind) {
    case "bad-request":
      return {
        title: "The service could not run this request",
        body: `${error.message.replace(/\.?$/, ".")} Change the search and try again.`,
        retry: false,
        report: false,
      };
    case "unavailable":
      return {
        title: `${stateLabel} is not covered`,
        body: `License Lookup has no ${stateLabel} records for your team. Pick another state, or ask whoever runs License Lookup for your team to add ${stateLabel}.`,
        retry: false,
        report: false,
      };
    case "unauthorized":
      return {
        title: "The license service refused this app",
        body: "Ask whoever runs License Lookup for your team to check its access key (LLS_API_KEY on the app's server) and restart the app.",
        retry: true,
        report: false,
      };
    case "rate-limited": {
      // Without a Retry-After, a pause long enough for the service's burst to refill.
      const wait = error.details.retryAfter || 10;
      return {
        title: "Too many lookups in a short time",
        body: `Wait ${wait} second${wait === 1 ? "" : "s"}: the page tries again by itself then.`,
        retry: true,
        retryIn: wait,
        report: false,
      };
    }
    case "server":
      return {
        title: "The license service ran into a problem",
        body: `This is on the service's side${ref}. Try again in a moment; if it keeps happening, report it with the time below.`,
        retry: true,
        report: true,
      };
    case "network":
      return {
        title: "The license service could not be reached",
        body: "Check your network connection, then try again.",
        retry: true,
        report: false,
      };
    case "invalid-response":
      return {
        title: "The service sent an answer this app does not understand",
        body: `Try again; if it keeps happening, report it${ref}.`,
        retry: true,
        report: true,
      };
  }
}
