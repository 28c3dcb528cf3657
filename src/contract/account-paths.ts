/**
 * Where sign-in lives: routes of the app's own server (`/api/…`) and its pages. Kept apart from the schemas (no zod),
 * so the app's first script can name them without carrying a schema library.
 */
export const SESSION_API = "/api/session";
export const SIGN_IN_API = "/api/sign-in";
export const SIGN_OUT_API = "/api/sign-out";
/** Where the browser goes to sign in with the identity provider (`?next=` the page to return to). */
export const OIDC_SIGN_IN_PATH = "/api/sign-in/oidc";
/** Sets a password from a one-time link's token. */
export const PASSWORD_API = "/api/password";
export const USERS_API = "/api/users";

/** The app's own pages that open without a session. */
export const SIGN_IN_PAGE = "/sign-in";
export const SET_PASSWORD_PAGE = "/set-password";

/** A page's path and query to return to after sign-in: only this app's own paths, never another site. */
export function safeNext(next: string | null | undefined): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/";
  if (next.startsWith(SIGN_IN_PAGE) || next.startsWith("/api/")) return "/";
  return next;
}
