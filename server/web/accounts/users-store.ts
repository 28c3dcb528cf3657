import { createHash, randomBytes } from "node:crypto";
import type Database from "better-sqlite3";
import type { Role, User } from "../../../src/contract/accounts.ts";

/**
 * The app's accounts in its database: users, one-time password links and sessions. A link's token and a
 * session's id are kept as SHA-256 only: a copy of the database lets no one in.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS users (
  id INTEGER PRIMARY KEY,
  email TEXT NOT NULL UNIQUE COLLATE NOCASE,
  name TEXT,
  role TEXT NOT NULL,
  password_hash TEXT,
  created_at TEXT NOT NULL,
  last_sign_in_at TEXT
);
CREATE TABLE IF NOT EXISTS password_links (
  token_hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sessions (
  id_hash TEXT PRIMARY KEY,
  user_id INTEGER REFERENCES users (id) ON DELETE CASCADE,
  data TEXT NOT NULL,
  created_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS sessions_of_user ON sessions (user_id);
CREATE TABLE IF NOT EXISTS app_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
`;

/** How long a one-time link sets a password. */
export const LINK_HOURS = 72;

interface UserRow extends User {
  password_hash: string | null;
  created_at: string;
  last_sign_in_at: string | null;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** An email as one account: trimmed, lower case. */
export function normalEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function openUsersStore(db: Database.Database, now: () => Date = () => new Date()) {
  db.pragma("foreign_keys = ON");
  db.exec(SCHEMA);
  const s = {
    byId: db.prepare<[number], UserRow>("SELECT * FROM users WHERE id = ?"),
    byEmail: db.prepare<[string], UserRow>("SELECT * FROM users WHERE email = ?"),
    all: db.prepare<[string], UserRow & { active_sessions: number }>(
      `SELECT u.*, (SELECT count(*) FROM sessions s WHERE s.user_id = u.id AND s.last_seen_at > ?) AS active_sessions
       FROM users u ORDER BY u.email`,
    ),
    insert: db.prepare<[string, string | null, string, string]>(
      "INSERT INTO users (email, name, role, created_at) VALUES (?, ?, ?, ?)",
    ),
    setRole: db.prepare<[string, number]>("UPDATE users SET role = ? WHERE id = ?"),
    setName: db.prepare<[string, number]>("UPDATE users SET name = ? WHERE id = ?"),
    setPassword: db.prepare<[string, number]>("UPDATE users SET password_hash = ? WHERE id = ?"),
    signedIn: db.prepare<[string, number]>("UPDATE users SET last_sign_in_at = ? WHERE id = ?"),
    remove: db.prepare<[number]>("DELETE FROM users WHERE id = ?"),
    admins: db.prepare<[], number>("SELECT count(*) FROM users WHERE role = 'admin'").pluck(),
    addLink: db.prepare<[string, number, string]>(
      "INSERT INTO password_links (token_hash, user_id, expires_at) VALUES (?, ?, ?)",
    ),
    dropLinks: db.prepare<[number]>("DELETE FROM password_links WHERE user_id = ?"),
    link: db.prepare<[string], { user_id: number; expires_at: string }>(
      "SELECT user_id, expires_at FROM password_links WHERE token_hash = ?",
    ),
    getSession: db.prepare<[string], { data: string; last_seen_at: string }>(
      "SELECT data, last_seen_at FROM sessions WHERE id_hash = ?",
    ),
    putSession: db.prepare<[{ id: string; user: number | null; data: string; at: string }]>(
      `INSERT INTO sessions (id_hash, user_id, data, created_at, last_seen_at) VALUES (@id, @user, @data, @at, @at)
       ON CONFLICT (id_hash) DO UPDATE SET user_id = @user, data = @data, last_seen_at = @at`,
    ),
    seen: db.prepare<[string, string]>("UPDATE sessions SET last_seen_at = ? WHERE id_hash = ?"),
    dropSession: db.prepare<[string]>("DELETE FROM sessions WHERE id_hash = ?"),
    dropSessionsOf: db.prepare<[number]>("DELETE FROM sessions WHERE user_id = ?"),
    dropIdle: db.prepare<[string]>("DELETE FROM sessions WHERE last_seen_at <= ?"),
    getMeta: db.prepare<[string], string>("SELECT value FROM app_meta WHERE name = ?").pluck(),
    setMeta: db.prepare<[string, string]>("INSERT OR REPLACE INTO app_meta (name, value) VALUES (?, ?)"),
  };

  const userOf = (row: UserRow | undefined): User | null =>
    row ? { id: row.id, email: row.email, name: row.name, role: row.role } : null;
  const iso = () => now().toISOString();

  function newLink(userId: number): string {
    const token = randomBytes(32).toString("base64url");
    s.dropLinks.run(userId);
    s.addLink.run(sha256(token), userId, new Date(now().getTime() + LINK_HOURS * 3_600_000).toISOString());
    return token;
  }

  return {
    user: (id: number) => userOf(s.byId.get(id)),
    userByEmail: (email: string) => userOf(s.byEmail.get(normalEmail(email))),
    passwordHash: (id: number) => s.byId.get(id)?.password_hash ?? null,
    /** Every account, with its sessions used since `activeSince`. */
    list: (activeSince: string) =>
      s.all.all(activeSince).map((row) => ({
        ...userOf(row)!,
        created_at: row.created_at,
        last_sign_in_at: row.last_sign_in_at,
        has_password: row.password_hash !== null,
        active_sessions: row.active_sessions,
      })),
    add(email: string, role: Role, name: string | null): User {
      const id = Number(s.insert.run(normalEmail(email), name, role, iso()).lastInsertRowid);
      return this.user(id)!;
    },
    setRole: (id: number, role: Role) => s.setRole.run(role, id).changes === 1,
    setName: (id: number, name: string) => s.setName.run(name, id),
    remove: (id: number) => s.remove.run(id).changes === 1,
    admins: () => s.admins.get() ?? 0,
    signedIn: (id: number) => s.signedIn.run(iso(), id),

    /** A new one-time link's token for the user; any older link of theirs stops working. */
    newLink: db.transaction(newLink),
    /** Sets the password of the link's user and uses the link up; null for a link unknown, used or expired. */
    usePasswordLink: db.transaction((token: string, passwordHash: string): User | null => {
      const link = s.link.get(sha256(token));
      if (!link) return null;
      s.dropLinks.run(link.user_id);
      if (link.expires_at <= iso()) return null;
      s.setPassword.run(passwordHash, link.user_id);
      return userOf(s.byId.get(link.user_id));
    }),
    setPassword: (id: number, passwordHash: string) => s.setPassword.run(passwordHash, id),

    session: {
      get(id: string, idleSince: string): { data: string; lastSeenAt: string } | null {
        const row = s.getSession.get(sha256(id));
        if (!row) return null;
        if (row.last_seen_at <= idleSince) {
          s.dropSession.run(sha256(id));
          return null;
        }
        return { data: row.data, lastSeenAt: row.last_seen_at };
      },
      put: (id: string, userId: number | null, data: string) =>
        s.putSession.run({ id: sha256(id), user: userId, data, at: iso() }),
      seen: (id: string) => s.seen.run(iso(), sha256(id)),
      drop: (id: string) => s.dropSession.run(sha256(id)),
      dropAllOf: (userId: number) => s.dropSessionsOf.run(userId).changes,
      dropIdle: (idleSince: string) => s.dropIdle.run(idleSince).changes,
    },
    meta: (name: string) => s.getMeta.get(name) ?? null,
    setMeta: (name: string, value: string) => s.setMeta.run(name, value),
  };
}

export type UsersStore = ReturnType<typeof openUsersStore>;
