import { useMutation, useQuery } from "@tanstack/react-query";
import { Link, Navigate, useLocation, useNavigate } from "react-router";
import { isSignedOut, sessionQuery, signOutMutation } from "../api/session-query.ts";
import { SET_PASSWORD_PAGE, SIGN_IN_PAGE } from "../contract/account-paths.ts";
import { type Session } from "../contract/accounts.ts";
import { signInUrl } from "./sign-in-url.ts";

/** The pages a person without a session may open. */
const OPEN_PAGES: readonly string[] = [SIGN_IN_PAGE, SET_PASSWORD_PAGE];

/**
 * Everything of the session the layout shows, in one piece that arrives after the first page (the page's own
 * script carries none of it): the header's corner, the development notice, and, once the session has ended
 * while the app is open, the way to sign in and back to this very page.
 */
export function SessionCorner() {
  const { pathname, search, hash } = useLocation();
  const session = useQuery(sessionQuery());
  const signedOut = isSignedOut(session.error);
  return (
    <>
      <AccountMenu session={signedOut ? undefined : session.data} />
      {signedOut && !OPEN_PAGES.includes(pathname) ? (
        <Navigate replace to={signInUrl(`${pathname}${search}${hash}`)} />
      ) : null}
      {session.data?.development && !signedOut ? (
        // Fixed to the window's foot: on every page, and moving nothing when it arrives.
        <p className="development-notice" role="note">
          Development sign-in: you are signed in automatically as a local administrator.
        </p>
      ) : null}
    </>
  );
}

/**
 * The header's corner: who is signed in, their role, "Users" for an administrator, and "Sign out". Its room is
 * kept empty until the session is in (and stays empty without the app's server), so nothing beside it moves.
 */
export function AccountMenu({ session }: { session: Session | null | undefined }) {
  const navigate = useNavigate();
  const signOut = useMutation(signOutMutation());
  if (!session) return <div className="site-header__account" />;
  const { user } = session;
  return (
    <div className="site-header__account">
      <span className="account__who" title={user.email}>
        {user.name || user.email}
      </span>{" "}
      <span className="account__role">{user.role}</span>
      {user.role === "admin" ? <Link to="/users">Users</Link> : null}
      <button
        type="button"
        className="account__sign-out"
        disabled={signOut.isPending}
        onClick={() => signOut.mutate(undefined, { onSuccess: () => void navigate(SIGN_IN_PAGE) })}
      >
        Sign out
      </button>
      {signOut.error ? (
        <span className="account__failure" role="alert">
          Signing out did not work: try again.
        </span>
      ) : null}
    </div>
  );
}
