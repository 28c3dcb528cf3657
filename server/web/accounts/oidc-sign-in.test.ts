import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "../../testing/free-port.ts";
import { signInAtProvider, startOidcProvider } from "../../testing/oidc-provider.ts";
import { createOidcSignIn, OidcSignInError } from "./oidc-sign-in.ts";

const REDIRECT_URI = "http://127.0.0.1:5173/api/sign-in/oidc/callback";
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function provider(port?: number) {
  const started = await startOidcProvider({
    accounts: [{ email: "Maria@Example.com", name: "Maria Lopez" }],
    redirectUris: [REDIRECT_URI],
    port,
  });
  closers.push(started.close);
  return started;
}

describe("createOidcSignIn", () => {
  it("takes an http:// issuer only on a loopback address", () => {
    const settings = { clientId: "app", clientSecret: "secret", redirectUri: REDIRECT_URI };

    expect(() => createOidcSignIn({ ...settings, issuer: "http://idp.example.com" })).toThrow(/https:\/\//);
    expect(() => createOidcSignIn({ ...settings, issuer: "http://10.0.0.5:8080" })).toThrow(/https:\/\//);
    expect(() => createOidcSignIn({ ...settings, issuer: "https://idp.example.com" })).not.toThrow();
    expect(() => createOidcSignIn({ ...settings, issuer: "http://127.0.0.1:4000" })).not.toThrow();
    expect(() => createOidcSignIn({ ...settings, issuer: "http://[::1]:4000" })).not.toThrow();
  });

  it("asks the provider again on the next sign-in when it could not be reached before", async () => {
    const port = await freePort();
    const oidc = createOidcSignIn({
      issuer: `http://127.0.0.1:${port}`,
      clientId: "license-lookup",
      clientSecret: "secret",
      redirectUri: REDIRECT_URI,
    });

    const refused = await oidc.start("/").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OidcSignInError);
    expect((refused as OidcSignInError).message).toMatch(/could not be reached/);

    await provider(port);
    const { url, pending } = await oidc.start("/license/ny/1268007");
    expect(url.origin).toBe(`http://127.0.0.1:${port}`);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("state")).toBe(pending.state);
    expect(url.searchParams.get("nonce")).toBe(pending.nonce);
    expect(pending.next).toBe("/license/ny/1268007");
  });

  it("gives the provider's verified email lower-cased, and refuses an answer meant for another start", async () => {
    const idp = await provider();
    const oidc = createOidcSignIn({
      issuer: idp.issuer,
      clientId: idp.clientId,
      clientSecret: idp.clientSecret,
      redirectUri: REDIRECT_URI,
    });

    const first = await oidc.start("/");
    const other = await oidc.start("/");
    const callback = await signInAtProvider(first.url.href, "Maria@Example.com");
    // Same state, another start's nonce: the ID token was not issued for this sign-in.
    const mixed = await oidc
      .finish(callback, { ...first.pending, nonce: other.pending.nonce })
      .catch((e: unknown) => e);
    expect(mixed).toBeInstanceOf(OidcSignInError);
    expect((mixed as OidcSignInError).reason).toBe("failed");
    expect((mixed as OidcSignInError).message).toMatch(/nonce/);

    const again = await oidc.start("/");
    const claims = await oidc.finish(await signInAtProvider(again.url.href, "Maria@Example.com"), again.pending);
    expect(claims).toEqual({ email: "maria@example.com", name: "Maria Lopez", sub: "Maria@Example.com" });
  });

  it("names the provider's refusal of a wrong client secret, for the administrator who set it", async () => {
    const idp = await provider();
    const oidc = createOidcSignIn({
      issuer: idp.issuer,
      clientId: idp.clientId,
      clientSecret: "not the secret",
      redirectUri: REDIRECT_URI,
    });

    const { url, pending } = await oidc.start("/");
    const refused = await oidc
      .finish(await signInAtProvider(url.href, "maria@example.com"), pending)
      .catch((e: unknown) => e);
    expect((refused as OidcSignInError).reason).toBe("failed");
    expect((refused as OidcSignInError).message).toMatch(/invalid_client/);
  });
});
