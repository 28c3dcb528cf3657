import * as client from "openid-client";
import { z } from "zod/mini";

export interface OidcSettings {
  /** OIDC_ISSUER: https://, or http:// on a loopback address only (the tests' provider). */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** `<app URL>/api/sign-in/oidc/callback`, exactly as registered at the provider. */
  redirectUri: string;
}

/** What the browser's round trip to the provider must bring back unchanged; kept by the app until the callback. */
export const PendingSignInSchema = z.object({
  state: z.string(),
  nonce: z.string(),
  verifier: z.string(),
  /** The page to return to, already through `safeNext`. */
  next: z.string(),
});
export type PendingSignIn = z.infer<typeof PendingSignInSchema>;

/** Who the provider says signed in. */
export interface OidcClaims {
  /** Verified by the provider, trimmed and lower-cased. */
  email: string;
  name: string | null;
  /** The provider's own identifier of the person. */
  sub: string;
}

/** Why a sign-in at the provider was refused: `unverified-email` is the one a person may be told apart. */
export class OidcSignInError extends Error {
  constructor(
    readonly reason: "unverified-email" | "failed",
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "OidcSignInError";
  }
}

export type OidcSignIn = ReturnType<typeof createOidcSignIn>;

const SCOPE = "openid email profile";
// A browser waits on discovery and on the token exchange: better a quick "try again" than a minute's spinner.
const PROVIDER_TIMEOUT_S = 10;
const LOOPBACK_HOST = /^(127(\.\d{1,3}){3}|\[::1\]|localhost)$/;

interface OAuthErrorFields {
  error?: unknown;
  error_description?: unknown;
}

/** The provider's error code and description: on the error itself, or in a WWW-Authenticate challenge (a 401). */
function providerError(error: Error): string | null {
  const challenge = Array.isArray(error.cause) ? (error.cause[0] as { parameters?: OAuthErrorFields }) : undefined;
  const { error: code, error_description: description } = challenge?.parameters ?? (error as OAuthErrorFields);
  if (typeof code !== "string") return null;
  return typeof description === "string" ? `${code} (${description})` : code;
}

/**
 * openid-client's messages are generic ("unexpected JWT claim value encountered"): its causes name the claim, and
 * the provider's own error code says what to fix (invalid_client: the secret; access_denied: the person said no).
 */
function message(error: unknown): string {
  const parts: string[] = [];
  for (let at = error; at instanceof Error && parts.length < 4; at = at.cause) {
    const part = providerError(at) ?? at.message;
    if (!parts.includes(part)) parts.push(part);
  }
  return parts.length ? parts.join(": ") : String(error);
}

/** The organisation's identity provider: authorization code flow with PKCE, state and nonce, secret sent as Basic. */
export function createOidcSignIn({ issuer, clientId, clientSecret, redirectUri }: OidcSettings) {
  const issuerUrl = new URL(issuer);
  const insecure = issuerUrl.protocol === "http:" && LOOPBACK_HOST.test(issuerUrl.hostname);
  if (issuerUrl.protocol !== "https:" && !insecure) {
    throw new Error(`OIDC_ISSUER must be an https:// address (http:// is taken only on this machine): ${issuer}`);
  }

  // Discovered on the first sign-in, not at startup: a provider down when the app starts must not stop the app.
  let discovered: Promise<client.Configuration> | null = null;
  function configuration(): Promise<client.Configuration> {
    discovered ??= client
      .discovery(issuerUrl, clientId, undefined, client.ClientSecretBasic(clientSecret), {
        timeout: PROVIDER_TIMEOUT_S,
        execute: insecure ? [client.allowInsecureRequests] : [],
      })
      .catch((error: unknown) => {
        discovered = null; // the next sign-in asks again
        throw new OidcSignInError("failed", `the identity provider ${issuer} could not be reached: ${message(error)}`, {
          cause: error,
        });
      });
    return discovered;
  }

  return {
    redirectUri,

    /** Where to send the browser, and what to keep until it comes back. */
    async start(next: string): Promise<{ url: URL; pending: PendingSignIn }> {
      const config = await configuration();
      const pending: PendingSignIn = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        verifier: client.randomPKCECodeVerifier(),
        next,
      };
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: SCOPE,
        state: pending.state,
        nonce: pending.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
        code_challenge_method: "S256",
      });
      return { url, pending };
    },

    /** The callback's full URL (query included) and what `start` kept: who signed in, or an OidcSignInError. */
    async finish(callbackUrl: URL, pending: PendingSignIn): Promise<OidcClaims> {
      const config = await configuration();
      let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
      try {
        tokens = await client.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: pending.verifier,
          expectedState: pending.state,
          expectedNonce: pending.nonce,
        });
      } catch (error) {
        throw new OidcSignInError("failed", `the provider's answer was refused: ${message(error)}`, { cause: error });
      }
      // expectedNonce makes an ID token required: claims() is there.
      const idToken = tokens.claims()!;
      let claims: Record<string, unknown> = idToken;
      // Many providers put only `sub` in the ID token and the rest behind the userinfo endpoint.
      if (idToken.email === undefined || idToken.email_verified === undefined || idToken.name === undefined) {
        try {
          claims = { ...(await client.fetchUserInfo(config, tokens.access_token, idToken.sub)), ...idToken };
        } catch (error) {
          throw new OidcSignInError("failed", `the provider's userinfo was refused: ${message(error)}`, {
            cause: error,
          });
        }
      }
      const email = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : "";
      if (!email)
        throw new OidcSignInError("failed", "the provider gave no email: is the email scope allowed for this client?");
      // Some providers send the flag as a string.
      if (claims.email_verified !== true && claims.email_verified !== "true") {
        throw new OidcSignInError("unverified-email", `the provider does not say ${email} is verified`);
      }
      const name = typeof claims.name === "string" && claims.name.trim() ? claims.name.trim() : null;
      return { email, name, sub: idToken.sub };
    },
  };
}
