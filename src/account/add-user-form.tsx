import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { accountMutations } from "../api/account-queries.ts";
import { ApiError } from "../api/api-error.ts";
import { ROLES, type Role } from "../contract/accounts.ts";
import { OneTimeLink } from "./one-time-link.tsx";

/** A new account: its email, name and role; the answer's one-time link is shown to pass on. */
export function AddUserForm() {
  const add = useMutation(accountMutations.addUser());
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [role, setRole] = useState<Role>("member");

  return (
    <section className="add-user" aria-labelledby="add-user-heading">
      <h2 id="add-user-heading">Add a user</h2>
      <form
        className="add-user__form"
        onSubmit={(event) => {
          event.preventDefault();
          add.mutate(
            { email: email.trim(), name: name.trim() || null, role },
            {
              onSuccess: () => {
                setEmail("");
                setName("");
              },
            },
          );
        }}
      >
        <label>
          Email
          <input type="email" required value={email} onChange={(event) => setEmail(event.target.value)} />
        </label>
        <label>
          Name <span className="muted">(optional)</span>
          <input value={name} onChange={(event) => setName(event.target.value)} />
        </label>
        <label>
          Role
          <select value={role} onChange={(event) => setRole(event.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
        <p>
          <button type="submit" className="button button--primary" disabled={add.isPending}>
            Add user
          </button>
        </p>
      </form>
      {add.error ? (
        <p className="notice notice--error" role="alert">
          {add.error instanceof ApiError ? add.error.message : "The user could not be added."}
        </p>
      ) : null}
      {add.data ? <OneTimeLink email={add.data.user.email} link={add.data.link} /> : null}
    </section>
  );
}
