import { mutationOptions, queryOptions, type QueryClient } from "@tanstack/react-query";
import { z } from "zod/mini";
import { PASSWORD_API, SIGN_IN_API, USERS_API } from "../contract/account-paths.ts";
import {
  SessionResponseSchema,
  SignInOptionsResponseSchema,
  UserListResponseSchema,
  UserSchema,
  type Role,
  type Session,
} from "../contract/accounts.ts";
import { ApiError } from "./api-error.ts";
import { SESSION_KEY, sessionQuery } from "./session-query.ts";
import { fetchJson, sendJson } from "./fetch-json.ts";

const USERS_KEY = ["account", "users"] as const;

/** A 404 from an account route: the app runs without its own server (plain `vite`), where no one signs in. */
function withoutAppServer(error: unknown): boolean {
  return error instanceof ApiError && error.details.status === 404;
}

/** Signed in: what the cache held was asked without a session (or as someone else), and goes; the session is in. */
function signedIn(client: QueryClient, session: Session) {
  client.removeQueries();
  client.setQueryData(SESSION_KEY, session);
}

// The contract names no schema for these two answers (the brief gives their shape): built from its parts.
const UserAddedResponseSchema = z.object({ data: z.object({ user: UserSchema, link: z.string() }) });
const LinkResponseSchema = z.object({ data: z.object({ link: z.string() }) });

export const accountQueries = {
  session: sessionQuery,

  /** The ways in this app offers; null without the app's server. */
  signInOptions: () =>
    queryOptions({
      queryKey: ["account", "sign-in-options"] as const,
      queryFn: async ({ signal }) => {
        try {
          return (await fetchJson(SIGN_IN_API, SignInOptionsResponseSchema, { signal })).data;
        } catch (error) {
          if (withoutAppServer(error)) return null;
          throw error;
        }
      },
      staleTime: Infinity,
    }),

  /** Every account (administrators only). */
  users: () =>
    queryOptions({
      queryKey: USERS_KEY,
      queryFn: async ({ signal }) => (await fetchJson(USERS_API, UserListResponseSchema, { signal })).data,
    }),
};

const userPath = (id: number) => `${USERS_API}/${id}`;

/** A change to the accounts; the list is asked again once it is done. */
function userWrite<TData, TVariables>(mutationFn: (variables: TVariables) => Promise<TData>) {
  return mutationOptions<TData, Error, TVariables>({
    mutationFn,
    onSettled: (_data, _error, _variables, _result, { client }) => client.invalidateQueries({ queryKey: USERS_KEY }),
  });
}

export const accountMutations = {
  /** Email and password; the answer is the session, put in the cache for the pages to see at once. */
  signIn: () =>
    mutationOptions({
      mutationFn: async (credentials: { email: string; password: string }) =>
        (await sendJson("POST", SIGN_IN_API, credentials, SessionResponseSchema)).data,
      onSuccess: (session, _variables, _result, { client }) => signedIn(client, session),
    }),

  /** A one-time link's token and the new password: signs in. */
  setPassword: () =>
    mutationOptions({
      mutationFn: async (body: { token: string; password: string }) =>
        (await sendJson("POST", PASSWORD_API, body, SessionResponseSchema)).data,
      onSuccess: (session, _variables, _result, { client }) => signedIn(client, session),
    }),

  /** Ends the session; everything the cache held was that person's, and goes with it. */
  addUser: () =>
    userWrite(
      async (user: { email: string; name: string | null; role: Role }) =>
        (await sendJson("POST", USERS_API, user, UserAddedResponseSchema)).data,
    ),

  setRole: () =>
    userWrite(({ id, role }: { id: number; role: Role }) => sendJson("PATCH", userPath(id), { role }, null)),

  remove: () => userWrite((id: number) => sendJson("DELETE", userPath(id), undefined, null)),

  /** A new one-time password link. */
  reset: () =>
    userWrite(
      async (id: number) => (await sendJson("POST", `${userPath(id)}/reset`, undefined, LinkResponseSchema)).data,
    ),

  endSessions: () => userWrite((id: number) => sendJson("DELETE", `${userPath(id)}/sessions`, undefined, null)),
};
