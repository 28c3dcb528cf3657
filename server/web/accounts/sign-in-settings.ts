import { ROLES, type Role } from "../../../src/contract/accounts.ts";
import { type Accounts, type OidcPolicy } from "./accounts.ts";
import { createOidcSignIn } from "./oidc-sign-in.ts";
import { OIDC_CALLBACK_PATH, oidcRoutes } from "./oidc-routes.ts";
import { beginSession, type SignInOptions } from "./sessions.ts";

export interface SignInSettings {
  secret?: string;
  cookieName?: string;
  oidc: { issuer: string; clientId: string; clientSecret: string; name: string } | null;
  oidcPolicy: OidcPolicy;
}

/** Sign-in's settings from the environment (README's "Signing in"); an error names the variable to fix. */
export function signInSettingsFromEnv(env: NodeJS.ProcessEnv): SignInSettings {
  const secret = env.SESSION_SECRET?.trim() || undefined;
  if (secret !== undefined && secret.length < 32) {
    throw new Error("SESSION_SECRET must be at least 32 characters (or leave it unset: the app keeps one of its own)");
  }
  const issuer = env.OIDC_ISSUER?.trim();
  const clientId = env.OIDC_CLIENT_ID?.trim();
  const clientSecret = env.OIDC_CLIENT_SECRET?.trim();
  if (issuer && (!clientId || !clientSecret)) {
    throw new Error(
      "OIDC_ISSUER is set but OIDC_CLIENT_ID or OIDC_CLIENT_SECRET is not: give the client the provider registered",
    );
  }
  const role = (env.OIDC_ROLE?.trim() || "member") as Role;
  if (!ROLES.includes(role)) throw new Error(`OIDC_ROLE must be one of ${ROLES.join(", ")}, not "${env.OIDC_ROLE}"`);
  const allowedDomains = (env.OIDC_ALLOWED_DOMAINS ?? "")
    .split(",")
    .map((d) => d.trim().toLowerCase().replace(/^@/, ""))
    .filter(Boolean);
  return {
    secret,
    cookieName: env.SESSION_COOKIE?.trim() || undefined,
    oidc:
      issuer && clientId && clientSecret
        ? { issuer, clientId, clientSecret, name: env.OIDC_NAME?.trim() || "your organisation’s account" }
        : null,
    oidcPolicy: { allowedDomains, role },
  };
}

/** What the app server registers for sign-in: sessions, and the identity provider's routes when one is set. */
export function signInOptions(
  settings: SignInSettings,
  { accounts, appUrl, development }: { accounts: Accounts; appUrl: string; development: boolean },
): SignInOptions {
  const { oidc } = settings;
  return {
    accounts,
    secret: settings.secret,
    cookieName: settings.cookieName,
    development,
    oidcName: oidc?.name ?? null,
    oidcRoutes: oidc
      ? oidcRoutes({
          oidc: createOidcSignIn({ ...oidc, redirectUri: `${appUrl.replace(/\/+$/, "")}${OIDC_CALLBACK_PATH}` }),
          signIn: async (request, _reply, claims) => {
            const user = await accounts.signInWithOidc(claims, request.ip);
            if (!user) return "not-allowed";
            await beginSession(request, user);
            return "ok";
          },
        })
      : null,
  };
}
