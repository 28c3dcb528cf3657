import { z } from "zod/mini";

/**
 * Who may use the app: sign-in by the organisation's identity provider (OpenID Connect) or a local email and
 * password; a session is a cookie. Where they live is in account-paths.ts.
 *
 * member: searches, verifies and watches. auditor: reads every check and the watchlist, changes nothing.
 * admin: a member who also manages users and the watchlist's alerts.
 */
export const ROLES = ["admin", "member", "auditor"] as const;
export type Role = (typeof ROLES)[number];

/** The shortest password a local account takes. */
export const MIN_PASSWORD_LENGTH = 12;

const Timestamp = z.iso.datetime();
/** Text stored as it was sent (an email, a name): no control characters, which PostgreSQL's text refuses in part. */
const Plain = (max: number) => z.string().check(z.maxLength(max), z.regex(/^\P{Cc}*$/u));

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
  email: Plain(320),
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
  email: Plain(320),
  name: z.optional(z.nullable(Plain(200))),
  role: z.enum(ROLES),
});
/** `PATCH /api/users/:id` (admin). */
export const SetRoleRequestSchema = z.object({ role: z.enum(ROLES) });
