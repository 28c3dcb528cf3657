import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Navigate, useSearchParams } from "react-router";
import { accountMutations } from "../api/account-queries.ts";
import { ApiError } from "../api/api-error.ts";
import { MIN_PASSWORD_LENGTH } from "../contract/accounts.ts";
import { signInFailureWords } from "./sign-in-words.ts";

/** Why the form is not sent yet; null when it may be. */
function problemWith(password: string, again: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) {
    return `The password needs at least ${MIN_PASSWORD_LENGTH} characters; it has ${password.length}.`;
  }
  if (password !== again) return "The two passwords differ: type the same one twice.";
  return null;
}

/** Why the link did not set the password, and what to do. */
function refusalWords(error: Error): string {
  if (!(error instanceof ApiError)) return "The password could not be set. Try again.";
  if (error.details.status === 429) return signInFailureWords(error);
  if (error.details.status === 400) {
    return `${error.message.replace(/\.?$/, ".")} A link works once and for a limited time: ask an administrator for a new one if it has expired.`;
  }
  return "The password could not be set. Try again.";
}

/** `/set-password?token=…`: a one-time link's page. The password typed twice; then signed in, and home. */
export function SetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const setPassword = useMutation(accountMutations.setPassword());
  const [password, setPasswordText] = useState("");
  const [again, setAgain] = useState("");
  const [problem, setProblem] = useState<string | null>(null);

  if (setPassword.isSuccess) return <Navigate replace to="/" />;

  const refused = setPassword.error ? refusalWords(setPassword.error) : null;

  return (
    <div className="sign-in">
      <title>Set your password – License Lookup</title>
      <h1>Set your password</h1>
      {token === "" ? (
        <p className="notice notice--error">
          This link has no token: open the whole link you were given, or ask an administrator for a new one.
        </p>
      ) : (
        <form
          className="sign-in__form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const found = problemWith(password, again);
            setProblem(found);
            if (!found) setPassword.mutate({ token, password });
          }}
        >
          {problem || refused ? (
            <p className="notice notice--error" role="alert">
              {problem ?? refused}
            </p>
          ) : null}
          <label className="field__label" htmlFor="new-password">
            New password
          </label>
          <input
            id="new-password"
            className="field__input"
            type="password"
            autoComplete="new-password"
            aria-describedby="new-password-hint"
            value={password}
            onChange={(event) => setPasswordText(event.target.value)}
          />
          <p id="new-password-hint" className="field__hint">
            At least {MIN_PASSWORD_LENGTH} characters. A few words you will remember make a good one.
          </p>
          <label className="field__label" htmlFor="new-password-again">
            The same password again
          </label>
          <input
            id="new-password-again"
            className="field__input"
            type="password"
            autoComplete="new-password"
            value={again}
            onChange={(event) => setAgain(event.target.value)}
          />
          <p>
            <button type="submit" className="button button--primary" disabled={setPassword.isPending}>
              Set password and sign in
            </button>
          </p>
        </form>
      )}
    </div>
  );
}
