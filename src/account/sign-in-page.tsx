import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link, Navigate, useSearchParams } from "react-router";
import { accountMutations, accountQueries } from "../api/account-queries.ts";
import { isSignedOut } from "../api/session-query.ts";
import { OIDC_SIGN_IN_PATH, safeNext } from "../contract/account-paths.ts";
import { refusalWords, signInFailureWords } from "./sign-in-words.ts";

/** `/sign-in?next=…&error=…`: the organisation's identity provider, or a local email and password; then back to `next`. */
export function SignInPage() {
  const [params] = useSearchParams();
  const next = safeNext(params.get("next"));
  const session = useQuery(accountQueries.session());
  const options = useQuery(accountQueries.signInOptions());
  const signIn = useMutation(accountMutations.signIn());
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");

  // Signed in (just now, or already): the page that was asked for. A session that has since ended keeps its last
  // data beside the 401, and is no session.
  if (session.data && !isSignedOut(session.error)) return <Navigate replace to={next} />;

  const provider = options.data?.oidc?.name ?? "your organisation’s sign-in";
  const refusal = refusalWords(params.get("error"), provider);
  const failure = signIn.error ? signInFailureWords(signIn.error) : null;

  return (
    <div className="sign-in">
      <title>Sign in – License Lookup</title>
      <h1>Sign in</h1>
      {session.data === null || options.data === null ? (
        <p className="notice notice--info">
          This copy of License Lookup runs without its own server, so there is nothing to sign in to.{" "}
          <Link to={next}>Go on to the app</Link>.
        </p>
      ) : options.isError ? (
        <p className="notice notice--error" role="alert">
          The sign-in page could not reach License Lookup. Reload the page to try again.
        </p>
      ) : !options.data ? (
        <p className="page-loading" role="status">
          Loading…
        </p>
      ) : (
        <>
          {refusal || failure ? (
            <p className="notice notice--error" role="alert">
              {failure ?? refusal}
            </p>
          ) : null}
          {options.data.oidc ? (
            <p>
              {/* A full-page visit: the identity provider's pages are not the app's. */}
              <a className="button button--primary" href={`${OIDC_SIGN_IN_PATH}?${new URLSearchParams({ next })}`}>
                Sign in with {options.data.oidc.name}
              </a>
            </p>
          ) : null}
          {options.data.password ? (
            <form
              className="sign-in__form"
              onSubmit={(event) => {
                event.preventDefault();
                signIn.mutate({ email: email.trim(), password });
              }}
            >
              {options.data.oidc ? <h2>Or with an email and password</h2> : null}
              <label className="field__label" htmlFor="sign-in-email">
                Email
              </label>
              <input
                id="sign-in-email"
                className="field__input"
                type="email"
                autoComplete="username"
                required
                value={email}
                onChange={(event) => setEmail(event.target.value)}
              />
              <label className="field__label" htmlFor="sign-in-password">
                Password
              </label>
              <input
                id="sign-in-password"
                className="field__input"
                type="password"
                autoComplete="current-password"
                required
                value={password}
                onChange={(event) => setPassword(event.target.value)}
              />
              <p>
                <button type="submit" className="button button--primary" disabled={signIn.isPending}>
                  {signIn.isPending ? "Signing in…" : "Sign in"}
                </button>
              </p>
              <p className="field__hint">Forgot your password? An administrator can send you a new password link.</p>
            </form>
          ) : null}
          {!options.data.password && !options.data.oidc ? (
            <p className="notice notice--info">
              No way to sign in is set up yet. Whoever runs License Lookup adds accounts with npm run users.
            </p>
          ) : null}
        </>
      )}
    </div>
  );
}
