import { z } from "zod/mini";

/**
 * Who may use the app: routes of the app's own server (`/api/…`), not of the v2 service. Sign-in is by the
 * organisation's identity provider (OpenID Connect) or a local email and password; a session is a cookie.
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

/**
 * member: searches, verifies and watches. auditor: reads every check and the watchlist, changes nothing.
 * admin: a member who also manages users and the watchlist's alerts.
 */
export const ROLES = ["admin", "member", "auditor"] as const;
export type Role = (typeof ROLES)[number];

/** The shortest password a local account takes. */
export const MIN_PASSWORD_LENGTH = 12;

const Timestamp = z.iso.datetime();

export const UserSchema = z.object({
  id: z.number().check(z.int(), z.positive()),
  email: z.string(),
  /** As the identity provider or the administrator gave it; null when none was. */
  name: z.nullable(z.string()),
  role: z.enum(ROLES),
});
export type User = z.infer<typeof UserSchema>;

/** `GET /api/session`: who is signed in (a 401 problem when no one is). */
export const SessionSchema = z.object({
  user: UserSchema,
  /** `npm start`'s automatic sign-in as a local administrator: every page says so. Never in production. */
  development: z.boolean(),
  /** When the session ends unless used before then. */
  expires_at: Timestamp,
});
export type Session = z.infer<typeof SessionSchema>;
export const SessionResponseSchema = z.object({ data: SessionSchema });

/** `GET /api/sign-in`: the ways in this app offers (public, for the sign-in page). */
export const SignInOptionsSchema = z.object({
  /** Email and password of a local account. */
  password: z.boolean(),
  /** The organisation's identity provider; null when none is set up. */
  oidc: z.nullable(z.object({ name: z.string() })),
});
export const SignInOptionsResponseSchema = z.object({ data: SignInOptionsSchema });

/** `POST /api/sign-in`: a local account's email and password; answered with the session, or 401 alike for any mistake. */
export const SignInRequestSchema = z.object({
  email: z.string().check(z.maxLength(320)),
  password: z.string().check(z.maxLength(1024)),
});

/** `POST /api/password`: the token of a one-time link and the new password. */
export const SetPasswordRequestSchema = z.object({
  token: z.string().check(z.maxLength(200)),
  password: z.string().check(z.minLength(MIN_PASSWORD_LENGTH), z.maxLength(1024)),
});

/** `GET /api/users` (admin): every account, with when it last signed in. */
export const UserListEntrySchema = z.object({
  ...UserSchema.shape,
  created_at: Timestamp,
  last_sign_in_at: z.nullable(Timestamp),
  /** Whether a local password is set (an identity-provider account needs none). */
  has_password: z.boolean(),
  active_sessions: z.number().check(z.int(), z.nonnegative()),
});
export const UserListResponseSchema = z.object({ data: z.array(UserListEntrySchema) });

/** `POST /api/users` (admin): a new account; the answer carries its one-time password link. */
export const AddUserRequestSchema = z.object({
  email: z.string().check(z.maxLength(320)),
  name: z.optional(z.nullable(z.string().check(z.maxLength(200)))),
  role: z.enum(ROLES),
});
/** `PATCH /api/users/:id` (admin). */
export const SetRoleRequestSchema = z.object({ role: z.enum(ROLES) });

/** A page's path and query to return to after sign-in: only this app's own paths, never another site. */
export function safeNext(next: string | null | undefined): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/";
  if (next.startsWith(SIGN_IN_PAGE) || next.startsWith("/api/")) return "/";
  return next;
}
