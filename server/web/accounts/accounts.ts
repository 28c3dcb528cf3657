import { SET_PASSWORD_PAGE } from "../../../src/contract/account-paths.ts";
import { MIN_PASSWORD_LENGTH, type Role, type User } from "../../../src/contract/accounts.ts";
import type { LogAction } from "../../../src/contract/checks.ts";
import type { StateDb } from "../../db/state-db.ts";
import { ProblemError } from "../../http/problem.ts";
import { hashPassword, noSuchHash, SCRYPT_COST, verifyPassword, type ScryptCost } from "./passwords.ts";
import { addressKey, createSignInThrottle, FAILURES_BEFORE_LOCK, LOCK_MS, type Taken } from "./sign-in-throttle.ts";
import { normalEmail, openUsersStore } from "./users-store.ts";

/** What the accounts write to the record of checks: sign-ins, failed ones, and administrators' changes. */
export interface AuditEntry {
  action: LogAction;
  user: Pick<User, "email" | "name" | "role"> | null;
  detail?: string | null;
}
/** Awaited: a change is answered once its entry is written. */
export type Audit = (entry: AuditEntry) => unknown;

/** Who may come in through the identity provider besides the accounts added beforehand. */
export interface OidcPolicy {
  /** Email domains whose verified addresses get an account on first sign-in; none: only accounts added beforehand. */
  allowedDomains: readonly string[];
  /** The role such a first sign-in gets. */
  role: Role;
}

export const IDLE_HOURS = 12;
/** `npm start`'s automatic administrator. */
export const DEVELOPMENT_ADMIN = "admin@localhost";

/** A change to the accounts that cannot be made as asked, answered to the administrator in these words. */
export class AccountError extends ProblemError {
  constructor(message: string, status: 400 | 404 | 409 = 400) {
    super(message, { status, title: "Not done" });
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** How a password is hashed and checked: scrypt, unless a test counts the calls. */
export interface Hasher {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
}

/** A try at a secret: done, refused (the same answer whatever was wrong), or not tried because its key is locked. */
export type Attempt<T> =
  { outcome: "ok"; user: T } | { outcome: "refused" } | { outcome: "throttled"; seconds: number };

export function createAccounts({
  state,
  audit,
  appUrl,
  oidcPolicy = { allowedDomains: [], role: "member" },
  now = () => new Date(),
  scryptCost = SCRYPT_COST,
  hasher = {
    hash: (password) => hashPassword(password, scryptCost),
    verify: verifyPassword,
  },
}: {
  /** The app's database, migrated with ACCOUNTS_MIGRATIONS. */
  state: StateDb;
  audit: Audit;
  /** The app's address, for one-time password links. */
  appUrl: string;
  oidcPolicy?: OidcPolicy;
  now?: () => Date;
  /** Tests that sign in dozens of times take a lighter one: the cost changes nothing of what they assert. */
  scryptCost?: ScryptCost;
  hasher?: Hasher;
}) {
  const NO_SUCH_HASH = noSuchHash(scryptCost);
  const store = openUsersStore(state, now);
  const throttle = createSignInThrottle({ tries: store.signInTries, now: () => now().getTime() });
  const who = (user: User) => ({ email: user.email, name: user.name, role: user.role });
  const linkOf = (token: string) => `${appUrl.replace(/\/+$/, "")}${SET_PASSWORD_PAGE}?token=${token}`;

  async function existing(id: number): Promise<User> {
    const user = await store.user(id);
    if (!user) throw new AccountError(`There is no user ${id}.`, 404);
    return user;
  }
  /** One entry in the record per lockout, not one per failed try: a flood of guesses does not grow it for ever. */
  async function recordLockouts(
    { locking }: Extract<Taken, { outcome: "taken" }>,
    { account, user, address }: { account: string | null; user: User | null; address: string },
  ) {
    const as = account === null ? "with a password link" : `as ${account.slice(0, 320)}`;
    const locked = `locked for ${LOCK_MS / 60_000} minutes`;
    for (const key of locking) {
      await audit({
        action: "sign-in failed",
        user: key === "account" && user ? who(user) : null,
        detail:
          key === "account"
            ? `${FAILURES_BEFORE_LOCK} failed sign-ins in a row ${as}, the last from ${address}: ${locked}`
            : `${FAILURES_BEFORE_LOCK} failed tries in a row from ${address}, the last ${as}: ${locked}`,
      });
    }
  }
  async function keepAnAdmin(user: User, change: string) {
    if (user.role === "admin" && (await store.admins()) <= 1) {
      throw new AccountError(
        `${user.email} is the only administrator: ${change} would leave no one to manage users.`,
        409,
      );
    }
  }

  return {
    store,
    audit,
    now,
    idleSince: () => new Date(now().getTime() - IDLE_HOURS * 3_600_000).toISOString(),
    expiresAt: (lastSeenAt: string) => new Date(Date.parse(lastSeenAt) + IDLE_HOURS * 3_600_000).toISOString(),

    /**
     * The same refusal for an unknown email, a wrong password and an account without one: nothing tells them apart.
     * The try is counted (per account and per address) before the password is checked.
     */
    async signInWithPassword(email: string, password: string, address: string): Promise<Attempt<User>> {
      const account = normalEmail(email);
      const keys = { account, address: addressKey(address) };
      const taken = await throttle.take(keys);
      if (taken.outcome === "throttled") return taken;
      const user = await store.userByEmail(account);
      const hash = (user && (await store.passwordHash(user.id))) ?? NO_SUCH_HASH;
      const ok = (await hasher.verify(password, hash)) && hash !== NO_SUCH_HASH && user !== null;
      if (!ok) {
        await recordLockouts(taken, { account, user, address });
        return { outcome: "refused" };
      }
      await throttle.succeeded(keys);
      await store.signedIn(user.id);
      await audit({ action: "sign-in", user: who(user), detail: `password, from ${address}` });
      return { outcome: "ok", user };
    },

    /** The account a verified email from the identity provider signs in as; null when it may not come in. */
    async signInWithOidc(claims: { email: string; name: string | null }, address: string): Promise<User | null> {
      const email = normalEmail(claims.email);
      let user = await store.userByEmail(email);
      const domain = email.split("@")[1] ?? "";
      if (!user && oidcPolicy.allowedDomains.includes(domain)) {
        user = await store.add(email, oidcPolicy.role, claims.name);
        await audit({
          action: "user added",
          user: who(user),
          detail: `first sign-in from the allowed domain ${domain}`,
        });
      }
      if (!user) {
        await audit({
          action: "sign-in failed",
          user: null,
          detail: `${email} is not allowed in (identity provider), from ${address}`,
        });
        return null;
      }
      if (claims.name && !user.name) await store.setName(user.id, claims.name);
      await store.signedIn(user.id);
      await audit({ action: "sign-in", user: who(user), detail: `identity provider, from ${address}` });
      return store.user(user.id);
    },

    async addUser(
      email: string,
      role: Role,
      name: string | null,
      by: User | null,
    ): Promise<{ user: User; link: string }> {
      const address = normalEmail(email);
      if (!EMAIL.test(address)) throw new AccountError(`“${email}” is not an email address.`);
      if (await store.userByEmail(address)) throw new AccountError(`${address} already has an account.`, 409);
      const user = await store.add(address, role, name?.trim() || null);
      const link = linkOf(await store.newLink(user.id));
      await audit({ action: "user added", user: by && who(by), detail: `${user.email} as ${role}` });
      return { user, link };
    },
    async setRole(id: number, role: Role, by: User | null): Promise<User> {
      const user = await existing(id);
      if (user.role === role) return user;
      if (role !== "admin") await keepAnAdmin(user, "this change");
      await store.setRole(id, role);
      await audit({ action: "role changed", user: by && who(by), detail: `${user.email}: ${user.role} → ${role}` });
      return existing(id);
    },
    async removeUser(id: number, by: User | null): Promise<void> {
      const user = await existing(id);
      await keepAnAdmin(user, "removing them");
      await store.remove(id);
      await audit({ action: "user removed", user: by && who(by), detail: `${user.email} (${user.role})` });
    },
    /** A new one-time link for the user (their password stays until it is used). */
    async resetLink(id: number, by: User | null): Promise<string> {
      const user = await existing(id);
      const link = linkOf(await store.newLink(id));
      await audit({ action: "password set", user: by && who(by), detail: `a new one-time link for ${user.email}` });
      return link;
    },
    async endSessions(id: number, by: User | null): Promise<number> {
      const user = await existing(id);
      const ended = await store.session.dropAllOf(id);
      await audit({ action: "sessions ended", user: by && who(by), detail: `${user.email}: ${ended} session(s)` });
      return ended;
    },
    async setPassword(id: number, password: string, by: User | null): Promise<void> {
      const user = await existing(id);
      if (password.length < MIN_PASSWORD_LENGTH) {
        throw new AccountError(`A password needs at least ${MIN_PASSWORD_LENGTH} characters.`);
      }
      await store.setPassword(id, await hasher.hash(password));
      await audit({ action: "password set", user: by && who(by), detail: user.email });
    },
    /**
     * Sets the password of a one-time link's user, ending their sessions. The token is looked up before any password
     * is hashed, and each try is counted against its address as a sign-in's is: made-up tokens cost one lookup each.
     */
    async usePasswordLink(token: string, password: string, address: string): Promise<Attempt<User>> {
      const keys = { address: addressKey(address) };
      const taken = await throttle.take(keys);
      if (taken.outcome === "throttled") return taken;
      const link = await store.passwordLink(token);
      const user =
        link && link.expiresAt > now().toISOString()
          ? await store.usePasswordLink(token, await hasher.hash(password))
          : null;
      if (!user) {
        await recordLockouts(taken, { account: null, user: null, address });
        return { outcome: "refused" };
      }
      await throttle.succeeded(keys);
      await audit({ action: "password set", user: who(user), detail: "from a one-time link" });
      return { outcome: "ok", user };
    },
    /** The local administrator `npm start` signs everyone in as. */
    async developmentAdmin(): Promise<User> {
      const found = await store.userByEmail(DEVELOPMENT_ADMIN);
      if (found) return found;
      try {
        return await store.add(DEVELOPMENT_ADMIN, "admin", "Local administrator");
      } catch (error) {
        // The first page's requests arrive together: another of them added it in between.
        const added = await store.userByEmail(DEVELOPMENT_ADMIN);
        if (added) return added;
        throw error;
      }
    },
  };
}

export type Accounts = ReturnType<typeof createAccounts>;
