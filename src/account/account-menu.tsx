import { useMutation } from "@tanstack/react-query";
import { Link, useNavigate } from "react-router";
import { accountMutations } from "../api/account-queries.ts";
import { SIGN_IN_PAGE, type Session } from "../contract/accounts.ts";

/**
 * The header's corner: who is signed in, their role, "Users" for an administrator, and "Sign out". Its room is
 * kept empty until the session is in (and stays empty without the app's server), so nothing beside it moves.
 */
export function AccountMenu({ session }: { session: Session | null | undefined }) {
  const navigate = useNavigate();
  const signOut = useMutation(accountMutations.signOut());
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
