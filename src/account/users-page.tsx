import { useQuery } from "@tanstack/react-query";
import { accountQueries } from "../api/account-queries.ts";
import { ApiErrorNotice } from "../shared/api-error-notice.tsx";
import { AddUserForm } from "./add-user-form.tsx";
import { UserRow } from "./user-row.tsx";

/** `/users`: the accounts, for administrators; anyone else is told it is not theirs to open. */
export function UsersPage() {
  const session = useQuery(accountQueries.session());
  const admin = session.data?.user.role === "admin";
  const users = useQuery({ ...accountQueries.users(), enabled: admin });

  if (session.isPending) {
    return (
      <p className="page-loading" role="status">
        Loading…
      </p>
    );
  }
  if (!admin) {
    return (
      <div className="not-found">
        <title>Not allowed – License Lookup</title>
        <h1>Not allowed</h1>
        <p className="lede">
          {session.data
            ? `Only administrators manage users; you are signed in as ${session.data.user.role === "auditor" ? "an auditor" : "a member"}. Ask an administrator to change your role if you need to.`
            : "This copy of License Lookup runs without its own server, so it has no users to manage."}
        </p>
      </div>
    );
  }
  return (
    <div className="users">
      <title>Users – License Lookup</title>
      <div className="page-intro">
        <h1>Users</h1>
        <p className="lede">
          Who may sign in, and as what: members search, verify and watch; auditors read every check and change nothing;
          administrators also manage users and alerts.
        </p>
      </div>
      <AddUserForm />
      <section aria-labelledby="users-heading">
        <h2 id="users-heading">Accounts</h2>
        {users.isError ? (
          <ApiErrorNotice error={users.error} stateLabel="The users" onRetry={() => void users.refetch()} />
        ) : !users.data ? (
          <p className="page-loading" role="status">
            Loading…
          </p>
        ) : (
          <div className="users__wrap">
            <table className="users__table">
              <thead>
                <tr>
                  <th scope="col">User</th>
                  <th scope="col">Role</th>
                  <th scope="col">Last sign-in</th>
                  <th scope="col">Sessions</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {users.data.map((user) => (
                  <UserRow key={user.id} user={user} self={user.id === session.data?.user.id} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
