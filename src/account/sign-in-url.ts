import { SIGN_IN_PAGE } from "../contract/account-paths.ts";

/** The sign-in page, returning afterwards to `next` (the page that was asked for, its query kept). */
export function signInUrl(next: string): string {
  return next === "/" ? SIGN_IN_PAGE : `${SIGN_IN_PAGE}?${new URLSearchParams({ next })}`;
}
