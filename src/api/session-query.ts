import { mutationOptions, queryOptions } from "@tanstack/react-query";
import { SESSION_API, SIGN_OUT_API } from "../contract/account-paths.ts";
import { ApiError } from "./api-error.ts";

/**
 * Who is signed in, asked by the layout on every page: kept out of the schema library's way, so the app's first
 * script carries no zod (the answer is parsed with the schema the first page brings: `npm run size`).
 */
export const SESSION_KEY = ["account", "session"] as const;

/** A 401: no one is signed in, or the session has ended. */
export function isSignedOut(error: unknown): boolean {
  return error instanceof ApiError && error.details.status === 401;
}

/**
 * Who is signed in; null without the app's server (nothing to sign in to). A 401 when no one is: an ApiError, beside
 * which the cache keeps the last session's data (isSignedOut(error) says it has ended).
 */
export const sessionQuery = () =>
  queryOptions({
    queryKey: SESSION_KEY,
    queryFn: async ({ signal }) => {
      const [{ fetchJson }, { SessionResponseSchema }] = await Promise.all([
        import("./fetch-json.ts"),
        import("../contract/accounts.ts"),
      ]);
      try {
        return (await fetchJson(SESSION_API, SessionResponseSchema, { signal })).data;
      } catch (error) {
        // A 404: the app runs without its own server (plain `vite`), where no one signs in.
        if (error instanceof ApiError && error.details.status === 404) return null;
        throw error;
      }
    },
    // Asked once a page is open, and again when an answer says the session ended; not on every focus.
    staleTime: Infinity,
    retry: false,
  });

/** Signing out ends the session on the server and forgets everything the app held for that person. */
export const signOutMutation = () =>
  mutationOptions({
    mutationFn: async () => (await import("./fetch-json.ts")).sendJson("POST", SIGN_OUT_API, undefined, null),
    onSuccess: (_data, _variables, _result, { client }) => client.clear(),
  });
