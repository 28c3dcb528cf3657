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

// Any origin will do: a `next` is resolved against it only to see whether it stays there.
const OWN_ORIGIN = "http://app.invalid";
// C0 and C1 controls and DEL: a browser drops tab, CR and LF from a URL, so `/<TAB>/evil.example` is `//evil.example`.
const CONTROL = /\p{Cc}/u;

/**
 * A page's path and query to return to after sign-in: resolved against the app's own origin as a browser would
 * resolve it, and kept only when it stays there; anything else is `/`. Percent-encoded throughout, so it is always
 * a valid Location header.
 */
export function safeNext(next: string | null | undefined): string {
  if (!next || !next.startsWith("/") || CONTROL.test(next)) return "/";
  let url: URL;
  try {
    url = new URL(next, OWN_ORIGIN);
  } catch {
    return "/";
  }
  // `/\evil.example` is another host to the URL parser as to a browser; `/.//evil.example` resolves to the path
  // `//evil.example`, which a browser would read as another host once it is sent back as a Location.
  if (url.origin !== OWN_ORIGIN || url.pathname.startsWith("//")) return "/";
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (path.startsWith(SIGN_IN_PAGE) || path.startsWith("/api/")) return "/";
  return path;
}
