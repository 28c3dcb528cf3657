import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { OIDC_SIGN_IN_PATH, SIGN_IN_PAGE, safeNext } from "../../../src/contract/account-paths.ts";
import {
  OidcSignInError,
  PendingSignInSchema,
  type OidcClaims,
  type OidcSignIn,
  type PendingSignIn,
} from "./oidc-sign-in.ts";

/** Where the provider sends the browser back: register `<app URL>` + this at the provider. */
export const OIDC_CALLBACK_PATH = `${OIDC_SIGN_IN_PATH}/callback`;

/** What the sign-in page is told went wrong (`/sign-in?error=…`). */
export type OidcSignInErrorCode = "not-allowed" | "oidc-failed" | "unverified-email";

export interface OidcRoutesOptions {
  oidc: OidcSignIn;
  /** Decides whether this person may come in and, if so, starts the session (sets its cookie on `reply`). */
  signIn: (request: FastifyRequest, reply: FastifyReply, claims: OidcClaims) => Promise<"ok" | "not-allowed">;
}

const PENDING_COOKIE = "oidc_pending";
// Long enough to type a password and answer a second factor at the provider; short enough not to linger.
const PENDING_MAX_AGE_S = 10 * 60;

function toSignInPage(reply: FastifyReply, error: OidcSignInErrorCode, next: string) {
  const query = new URLSearchParams({ error, next: safeNext(next) });
  return reply.header("cache-control", "no-store").redirect(`${SIGN_IN_PAGE}?${query}`, 302);
}

function readPending(request: FastifyRequest): PendingSignIn | null {
  const raw = request.cookies[PENDING_COOKIE];
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || unsigned.value === null) return null;
  try {
    const parsed = PendingSignInSchema.safeParse(JSON.parse(unsigned.value));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * `GET /api/sign-in/oidc?next=…` sends the browser to the identity provider; `GET /api/sign-in/oidc/callback`
 * brings it back, signed in through `signIn`, to `next`, or to the sign-in page with an error. Needs
 * @fastify/cookie registered with a secret: what the round trip must bring back is kept in a signed cookie.
 */
export function oidcRoutes({ oidc, signIn }: OidcRoutesOptions) {
  const redirectUri = new URL(oidc.redirectUri);
  if (redirectUri.pathname !== OIDC_CALLBACK_PATH) {
    throw new Error(`the OpenID redirect URI must end in ${OIDC_CALLBACK_PATH}: ${oidc.redirectUri}`);
  }
  const cookieOptions = {
    path: OIDC_SIGN_IN_PATH,
    httpOnly: true,
    sameSite: "lax",
    // As the session's: Secure when APP_URL is https, or when the request came over HTTPS (a trusted proxy says so).
    secure: redirectUri.protocol === "https:" ? true : "auto",
  } as const;

  // Fastify takes a plugin that returns a promise, or one that calls done: this one has nothing to await.
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app: FastifyInstance) => {
    app.get<{ Querystring: { next?: unknown } }>(OIDC_SIGN_IN_PATH, async (request, reply) => {
      const next = safeNext(typeof request.query.next === "string" ? request.query.next : null);
      let started: Awaited<ReturnType<OidcSignIn["start"]>>;
      try {
        started = await oidc.start(next);
      } catch (error) {
        request.log.error({ err: error }, "OpenID sign-in could not start");
        return toSignInPage(reply, "oidc-failed", next);
      }
      reply.setCookie(PENDING_COOKIE, JSON.stringify(started.pending), {
        ...cookieOptions,
        signed: true,
        maxAge: PENDING_MAX_AGE_S,
      });
      return reply.header("cache-control", "no-store").redirect(started.url.href, 302);
    });

    // No HEAD twin: a prefetcher's HEAD would spend the one-time code and the kept state.
    app.get(OIDC_CALLBACK_PATH, { exposeHeadRoute: false }, async (request, reply) => {
      // One round trip per start: whatever happens now, the kept state is spent.
      reply.clearCookie(PENDING_COOKIE, cookieOptions);
      const pending = readPending(request);
      if (!pending) {
        request.log.warn("OpenID sign-in refused: its cookie is missing, expired or altered");
        return toSignInPage(reply, "oidc-failed", "/");
      }
      // The registered address, not the Host header: the token request must name exactly the URI registered.
      const callbackUrl = new URL(redirectUri);
      callbackUrl.search = new URL(request.url, redirectUri).search;

      let claims: OidcClaims;
      try {
        claims = await oidc.finish(callbackUrl, pending);
      } catch (error) {
        const reason = error instanceof OidcSignInError ? error.reason : "failed";
        request.log.warn({ err: error }, "OpenID sign-in refused");
        return toSignInPage(reply, reason === "unverified-email" ? "unverified-email" : "oidc-failed", pending.next);
      }

      let outcome: "ok" | "not-allowed";
      try {
        outcome = await signIn(request, reply, claims);
      } catch (error) {
        request.log.error({ err: error, email: claims.email }, "OpenID sign-in failed after the provider's answer");
        return toSignInPage(reply, "oidc-failed", pending.next);
      }
      if (outcome === "not-allowed") {
        request.log.info({ email: claims.email }, "OpenID sign-in refused: not one of this app's users");
        return toSignInPage(reply, "not-allowed", pending.next);
      }
      return reply.header("cache-control", "no-store").redirect(safeNext(pending.next), 302);
    });
  };
}
