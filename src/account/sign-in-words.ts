import { ApiError } from "../api/api-error.ts";

/** What the identity provider's refusal (`/sign-in?error=…`) means, and what the person can do about it. */
export function refusalWords(code: string | null, provider: string): string | null {
  switch (code) {
    case null:
      return null;
    case "not-allowed":
      return `${provider} knows you, but your account may not use License Lookup. Ask an administrator to add you.`;
    case "unverified-email":
      return `${provider} has not verified your email address, so it cannot be matched to an account. Verify it with ${provider}, then sign in again.`;
    case "oidc-failed":
      return `Signing in with ${provider} did not work. Try again; if it keeps failing, tell an administrator.`;
    default:
      return "Signing in did not work. Try again; if it keeps failing, tell an administrator.";
  }
}

/** Why an email and password were not taken: the same words for an unknown email as for a wrong password. */
export function signInFailureWords(error: unknown): string {
  if (!(error instanceof ApiError)) return "Signing in did not work. Try again.";
  if (error.details.status === 401) {
    return "That email and password do not match an account. Check both, or ask an administrator for a new password link.";
  }
  if (error.details.status === 429) {
    const wait = error.details.retryAfter;
    return `Too many failed sign-ins. Wait ${wait === undefined ? "a few minutes" : waitWords(wait)}, then try again.`;
  }
  if (error.kind === "network") return "License Lookup could not be reached. Check your connection and try again.";
  return `Signing in did not work: ${error.message}`;
}

/** 30 -> "30 seconds", 61 -> "2 minutes", 3600 -> "60 minutes": rounded up, never promising too soon. */
export function waitWords(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? "1 second" : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? "1 minute" : `${minutes} minutes`;
}
