import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { type z } from "zod/mini";
import { accountMutations } from "../api/account-queries.ts";
import { ApiError } from "../api/api-error.ts";
import { ROLES, type UserListEntrySchema, type Role } from "../contract/accounts.ts";
import { formatLocalTime } from "../shared/dates.ts";
import { OneTimeLink } from "./one-time-link.tsx";

type UserEntry = z.infer<typeof UserListEntrySchema>;

const failure = (error: Error | null) =>
  error ? (error instanceof ApiError ? error.message : "That did not work: try again.") : null;

/** One account: its role to change, its sessions to end, a new password link, and removal (asked twice). */
export function UserRow({ user, self }: { user: UserEntry; self: boolean }) {
  const setRole = useMutation(accountMutations.setRole());
  const endSessions = useMutation(accountMutations.endSessions());
  const reset = useMutation(accountMutations.reset());
  const remove = useMutation(accountMutations.remove());
  const [confirming, setConfirming] = useState(false);
  const problem = failure(setRole.error ?? endSessions.error ?? reset.error ?? remove.error);
  const who = user.name ? `${user.name} (${user.email})` : user.email;

  return (
    <tr>
      <td>
        {user.name ? <span className="users__name">{user.name}</span> : null}
        <span className="users__email">{user.email}</span>
      </td>
      <td>
        <select
          aria-label={`Role of ${user.email}`}
          value={setRole.isPending ? setRole.variables.role : user.role}
          disabled={setRole.isPending}
          onChange={(event) => setRole.mutate({ id: user.id, role: event.target.value as Role })}
        >
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </td>
      <td>{user.last_sign_in_at ? formatLocalTime(user.last_sign_in_at) : <span className="none">Never</span>}</td>
      <td>
        {user.active_sessions}
        {user.active_sessions > 0 ? (
          <button
            type="button"
            className="button button--quiet"
            aria-label={`End the sessions of ${user.email}`}
            disabled={endSessions.isPending}
            onClick={() => endSessions.mutate(user.id)}
          >
            End sessions
          </button>
        ) : null}
      </td>
      <td>
        <button
          type="button"
          className="button button--quiet"
          aria-label={`New password link for ${user.email}`}
          disabled={reset.isPending}
          onClick={() => reset.mutate(user.id)}
        >
          New password link
        </button>
        {self ? null : confirming ? (
          <span className="users__confirm" role="group" aria-label={`Remove ${user.email}?`}>
            Remove {who}?{" "}
            <button type="button" className="button" onClick={() => remove.mutate(user.id)} disabled={remove.isPending}>
              Yes, remove
            </button>{" "}
            <button type="button" className="button button--quiet" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </span>
        ) : (
          <button
            type="button"
            className="button button--quiet"
            aria-label={`Remove ${user.email}`}
            onClick={() => setConfirming(true)}
          >
            Remove
          </button>
        )}
        {reset.data ? <OneTimeLink email={user.email} link={reset.data.link} /> : null}
        {problem ? (
          <p className="users__failure" role="alert">
            {problem}
          </p>
        ) : null}
      </td>
    </tr>
  );
}
