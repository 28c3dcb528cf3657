import { generateKeyPair, randomBytes, type KeyObject } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

export interface ProviderAccount {
  email: string;
  name: string;
  /** What the provider says of the email; verified unless false. */
  email_verified?: boolean;
}

export interface OidcProviderOptions {
  accounts: ProviderAccount[];
  clientId?: string;
  clientSecret?: string;
  redirectUris: string[];
  /** A port chosen beforehand (a test of a provider that comes up late); any free one by default. */
  port?: number;
}

/**
 * A real OpenID provider (oidc-provider, the certified implementation) on 127.0.0.1: authorization code flow with
 * PKCE, client_secret_basic, scopes openid email profile, and its development login and consent pages. Any login
 * signs in: a listed account with its claims, any other as itself with a verified email, so that an app's refusal
 * of an outside user can be tested.
 */
export async function startOidcProvider({
  accounts,
  clientId = "license-lookup",
  clientSecret = randomBytes(24).toString("base64url"),
  redirectUris,
  port = 0,
}: OidcProviderOptions) {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A key of its own rather than the library's development key: it also keeps a warning off every test's output.
  const { privateKey } = await new Promise<{ privateKey: KeyObject }>((resolve, reject) =>
    generateKeyPair("rsa", { modulusLength: 2048 }, (error, _publicKey, privateKey) =>
      error ? reject(error) : resolve({ privateKey }),
    ),
  );
  const byEmail = new Map(accounts.map((account) => [account.email.toLowerCase(), account]));

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    // PKCE is optional for a confidential client by default; real providers increasingly require it.
    pkce: { required: () => true },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    cookies: { keys: [randomBytes(32).toString("base64url")] },
    jwks: { keys: [{ ...privateKey.export({ format: "jwk" }), kid: "test", use: "sig", alg: "RS256" }] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
    // eslint-disable-next-line @typescript-eslint/require-await
    async findAccount(_ctx, login) {
      const account = byEmail.get(login.toLowerCase());
      return {
        accountId: login,
        claims: () => ({
          sub: login,
          email: account?.email ?? login,
          email_verified: account?.email_verified ?? true,
          ...(account ? { name: account.name } : {}),
        }),
      };
    },
    // eslint-disable-next-line @typescript-eslint/require-await
    async renderError(ctx, out) {
      ctx.type = "text/plain";
      ctx.body = Object.entries(out)
        .map(([key, value]) => `${key}: ${value}`)
        .join("\n");
    },
  });
  server.on("request", provider.callback());

  return {
    issuer,
    clientId,
    clientSecret,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Cookies by name, as a browser keeps them for one site (paths ignored: every cookie goes with every request). */
class CookieJar {
  readonly #cookies = new Map<string, string>();

  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expires = attributes.find((a) => /^\s*expires=/i.test(a))?.split("=")[1];
      const cleared = !value || (expires !== undefined && Date.parse(expires) <= Date.now());
      if (cleared) this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }

  header() {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

/**
 * Goes through the provider's development pages as a browser would, from the authorization URL an app redirected
 * to: types `login` at the sign-in page, agrees at the consent page, and returns the URL the provider sends the
 * browser back to (the app's callback, with its code and state, or with an error).
 */
export async function signInAtProvider(authorizationUrl: string, login: string): Promise<URL> {
  const jar = new CookieJar();
  let url = new URL(authorizationUrl);
  const issuerOrigin = url.origin;
  let form: URLSearchParams | null = null;
  for (let step = 0; step < 20; step++) {
    const response: Response = await fetch(url, {
      method: form ? "POST" : "GET",
      redirect: "manual",
      headers: { cookie: jar.header(), ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
      body: form,
    });
    jar.take(response);
    form = null;
    const location = response.headers.get("location");
    if (location) {
      await response.body?.cancel();
      url = new URL(location, url);
      if (url.origin !== issuerOrigin) return url;
      continue;
    }
    const page = await response.text();
    if (response.status !== 200) throw new Error(`the provider answered ${response.status} at ${url.href}: ${page}`);
    const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
    const action = /<form[^>]* action="([^"]+)"/.exec(page)?.[1];
    if (!prompt || !action) throw new Error(`no sign-in or consent form at ${url.href}`);
    form = new URLSearchParams(prompt === "login" ? { prompt, login, password: "any" } : { prompt });
    url = new URL(action.replaceAll("&amp;", "&"), url);
  }
  throw new Error("the provider never sent the browser back to the app");
}
