import { isIP } from "node:net";
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
  /** The proxies whose X-Forwarded-For and X-Forwarded-Proto are believed; empty: none, the peer is the client. */
  trustProxy: string[];
}

// proxy-addr's names for the loopback, link-local and private ranges, which Fastify's trustProxy takes as they are.
const RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/** One TRUST_PROXY entry: an address, a CIDR range, or one of RANGE_NAMES. */
function isProxyEntry(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: the balancers in front of the app, comma-separated. Only a request from one of them has its client's
 * address read from X-Forwarded-For (for the sign-in throttle and the record) and its scheme from X-Forwarded-Proto
 * (for the Secure cookie). Never "any": a client reaching the app directly could then name any address it liked.
 */
export function trustedProxiesFromEnv(env: NodeJS.ProcessEnv): string[] {
  const entries = (env.TRUST_PROXY ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const wrong = entries.find((entry) => !isProxyEntry(entry));
  if (wrong !== undefined) {
    throw new Error(
      `TRUST_PROXY must name the proxies in front of the app, comma-separated addresses or ranges such as 10.0.0.0/8 (or loopback), not "${wrong}"`,
    );
  }
  return entries;
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
    trustProxy: trustedProxiesFromEnv(env),
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
