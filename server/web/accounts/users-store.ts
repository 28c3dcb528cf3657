import { createHash, randomBytes } from "node:crypto";
import { sql, type Generated, type Kysely } from "kysely";
import type { Role, User } from "../../../src/contract/accounts.ts";
import { idType, type MigrationSet, type StateDb } from "../../db/state-db.ts";

/**
 * The app's accounts in its database: users, one-time password links and sessions. A link's token and a
 * session's id are kept as SHA-256 only: a copy of the database lets no one in.
 */
export const ACCOUNTS_MIGRATIONS: MigrationSet = {
  // IF NOT EXISTS throughout: an app.sqlite made before the migrations is adopted as it is.
  "2026-11-26-accounts": (backend) => ({
    async up(db: Kysely<unknown>) {
      const sqliteOnly = (clause: ReturnType<typeof sql>) => (backend === "sqlite" ? clause : sql``);
      await db.schema
        .createTable("users")
        .ifNotExists()
        .addColumn("id", idType(backend), (c) => c.primaryKey())
        // Emails are stored lower case; NOCASE keeps the SQLite files made before identical.
        .addColumn("email", "text", (c) =>
          c
            .notNull()
            .unique()
            .modifyEnd(sqliteOnly(sql`collate nocase`)),
        )
        .addColumn("name", "text")
        .addColumn("role", "text", (c) => c.notNull())
        .addColumn("password_hash", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("last_sign_in_at", "text")
        .execute();
      const userId = backend === "postgres" ? "bigint" : "integer";
      await db.schema
        .createTable("password_links")
        .ifNotExists()
        .addColumn("token_hash", "text", (c) => c.primaryKey())
        .addColumn("user_id", userId, (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("expires_at", "text", (c) => c.notNull())
        .modifyEnd(sqliteOnly(sql`without rowid`))
        .execute();
      await db.schema
        .createTable("sessions")
        .ifNotExists()
        .addColumn("id_hash", "text", (c) => c.primaryKey())
        .addColumn("user_id", userId, (c) => c.references("users.id").onDelete("cascade"))
        .addColumn("data", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("last_seen_at", "text", (c) => c.notNull())
        .modifyEnd(sqliteOnly(sql`without rowid`))
        .execute();
      await db.schema.createIndex("sessions_of_user").ifNotExists().on("sessions").column("user_id").execute();
      await db.schema
        .createTable("app_meta")
        .ifNotExists()
        .addColumn("name", "text", (c) => c.primaryKey())
        .addColumn("value", "text", (c) => c.notNull())
        .modifyEnd(sqliteOnly(sql`without rowid`))
        .execute();
    },
  }),
  // Several app nodes: failed sign-ins counted where every node reads them, not in one process's memory.
  "2026-11-26-sign-in-failures": () => ({
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("sign_in_failures")
        .addColumn("key", "text", (c) => c.primaryKey())
        .addColumn("failures", "integer", (c) => c.notNull())
        .addColumn("last_at", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("sign_in_failures_by_age").on("sign_in_failures").column("last_at").execute();
    },
  }),
  // Tries taken before the password is checked, not failures written after: a burst can no longer outrun its count.
  "2026-12-01-sign-in-tries": () => ({
    async up(db: Kysely<unknown>) {
      await db.schema.dropTable("sign_in_failures").ifExists().execute();
      await db.schema
        .createTable("sign_in_tries")
        .addColumn("key", "text", (c) => c.primaryKey())
        .addColumn("tries", "integer", (c) => c.notNull())
        .addColumn("last_at", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("sign_in_tries_by_age").on("sign_in_tries").column("last_at").execute();
    },
  }),
};

interface AccountsTables {
  users: {
    id: Generated<number>;
    email: string;
    name: string | null;
    role: Role;
    password_hash: string | null;
    created_at: string;
    last_sign_in_at: string | null;
  };
  password_links: { token_hash: string; user_id: number; expires_at: string };
  sessions: { id_hash: string; user_id: number | null; data: string; created_at: string; last_seen_at: string };
  app_meta: { name: string; value: string };
  sign_in_tries: { key: string; tries: number; last_at: string };
}

/** How long a one-time link sets a password. */
export const LINK_HOURS = 72;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** An email as one account: trimmed, lower case. */
export function normalEmail(email: string): string {
  return email.trim().toLowerCase();
}

const USER_COLUMNS = ["id", "email", "name", "role"] as const;

export function openUsersStore(state: StateDb, now: () => Date = () => new Date()) {
  const db = state.db as Kysely<AccountsTables>;
  const iso = () => now().toISOString();

  /** Accounts as the administrators' list shows them, with their sessions used since `activeSince`. */
  const listed = (activeSince: string) =>
    db
      .selectFrom("users as u")
      .select([...USER_COLUMNS.map((c) => `u.${c}` as const), "u.created_at", "u.last_sign_in_at"])
      .select((eb) => [
        eb("u.password_hash", "is not", null).as("has_password"),
        eb
          .selectFrom("sessions as s")
          .select(eb.fn.countAll<number>().as("n"))
          .whereRef("s.user_id", "=", "u.id")
          .where("s.last_seen_at", ">", activeSince)
          .as("active_sessions"),
      ]);
  // SQLite answers a comparison with 0 or 1.
  const listedOf = <R extends { has_password: unknown; active_sessions: number | null }>(row: R) => ({
    ...row,
    has_password: Boolean(row.has_password),
    active_sessions: row.active_sessions ?? 0,
  });

  const user = async (id: number): Promise<User | null> =>
    (await db.selectFrom("users").select(USER_COLUMNS).where("id", "=", id).executeTakeFirst()) ?? null;

  async function dropSession(id: string) {
    await db.deleteFrom("sessions").where("id_hash", "=", sha256(id)).execute();
  }

  return {
    user,
    userByEmail: async (email: string): Promise<User | null> =>
      (await db.selectFrom("users").select(USER_COLUMNS).where("email", "=", normalEmail(email)).executeTakeFirst()) ??
      null,
    passwordHash: async (id: number): Promise<string | null> =>
      (await db.selectFrom("users").select("password_hash").where("id", "=", id).executeTakeFirst())?.password_hash ??
      null,
    /** Every account, with its sessions used since `activeSince`. */
    list: async (activeSince: string) => (await listed(activeSince).orderBy("u.email").execute()).map(listedOf),
    /** One account as `list` shows it; null when there is none. */
    listed: async (id: number, activeSince: string) => {
      const row = await listed(activeSince).where("u.id", "=", id).executeTakeFirst();
      return row ? listedOf(row) : null;
    },
    /** How many accounts there are. */
    count: async (): Promise<number> =>
      (await db.selectFrom("users").select(db.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n,
    async add(email: string, role: Role, name: string | null): Promise<User> {
      return db
        .insertInto("users")
        .values({ email: normalEmail(email), name, role, created_at: iso() })
        .returning(USER_COLUMNS)
        .executeTakeFirstOrThrow();
    },
    setRole: async (id: number, role: Role) =>
      (await db.updateTable("users").set({ role }).where("id", "=", id).executeTakeFirst()).numUpdatedRows === 1n,
    setName: async (id: number, name: string) => {
      await db.updateTable("users").set({ name }).where("id", "=", id).execute();
    },
    remove: async (id: number) =>
      (await db.deleteFrom("users").where("id", "=", id).executeTakeFirst()).numDeletedRows === 1n,
    admins: async (): Promise<number> =>
      (
        await db
          .selectFrom("users")
          .select(db.fn.countAll<number>().as("n"))
          .where("role", "=", "admin")
          .executeTakeFirstOrThrow()
      ).n,
    signedIn: async (id: number) => {
      await db.updateTable("users").set({ last_sign_in_at: iso() }).where("id", "=", id).execute();
    },

    /** A new one-time link's token for the user; any older link of theirs stops working. */
    async newLink(userId: number): Promise<string> {
      const token = randomBytes(32).toString("base64url");
      const expires_at = new Date(now().getTime() + LINK_HOURS * 3_600_000).toISOString();
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom("password_links").where("user_id", "=", userId).execute();
        await trx
          .insertInto("password_links")
          .values({ token_hash: sha256(token), user_id: userId, expires_at })
          .execute();
      });
      return token;
    },
    /** The user a link's token sets the password of, and until when; null for a token never made or used up. */
    passwordLink: async (token: string): Promise<{ userId: number; expiresAt: string } | null> => {
      const link = await db
        .selectFrom("password_links")
        .select(["user_id", "expires_at"])
        .where("token_hash", "=", sha256(token))
        .executeTakeFirst();
      return link ? { userId: link.user_id, expiresAt: link.expires_at } : null;
    },
    /**
     * Sets the password of the link's user, uses the link up and ends the user's sessions; null for a link unknown,
     * used or expired.
     */
    usePasswordLink: (token: string, passwordHash: string): Promise<User | null> =>
      db.transaction().execute(async (trx) => {
        // Deleting it first: of two uses at once, on two nodes, only one finds it.
        const link = await trx
          .deleteFrom("password_links")
          .where("token_hash", "=", sha256(token))
          .returning(["user_id", "expires_at"])
          .executeTakeFirst();
        if (!link) return null;
        await trx.deleteFrom("password_links").where("user_id", "=", link.user_id).execute();
        if (link.expires_at <= iso()) return null;
        await trx.updateTable("users").set({ password_hash: passwordHash }).where("id", "=", link.user_id).execute();
        // Whoever held a session under the old password (or took one with a stolen one) is signed out.
        await trx.deleteFrom("sessions").where("user_id", "=", link.user_id).execute();
        return (
          (await trx.selectFrom("users").select(USER_COLUMNS).where("id", "=", link.user_id).executeTakeFirst()) ?? null
        );
      }),
    /** Sets the user's password and ends their sessions. */
    setPassword: async (id: number, passwordHash: string) => {
      await db.transaction().execute(async (trx) => {
        await trx.updateTable("users").set({ password_hash: passwordHash }).where("id", "=", id).execute();
        await trx.deleteFrom("sessions").where("user_id", "=", id).execute();
      });
    },

    session: {
      async get(id: string, idleSince: string): Promise<{ data: string; lastSeenAt: string } | null> {
        const row = await db
          .selectFrom("sessions")
          .select(["data", "last_seen_at"])
          .where("id_hash", "=", sha256(id))
          .executeTakeFirst();
        if (!row) return null;
        if (row.last_seen_at <= idleSince) {
          await dropSession(id);
          return null;
        }
        return { data: row.data, lastSeenAt: row.last_seen_at };
      },
      async put(id: string, userId: number | null, data: string) {
        const at = iso();
        await db
          .insertInto("sessions")
          .values({ id_hash: sha256(id), user_id: userId, data, created_at: at, last_seen_at: at })
          .onConflict((oc) => oc.column("id_hash").doUpdateSet({ user_id: userId, data, last_seen_at: at }))
          .execute();
      },
      seen: async (id: string) => {
        await db.updateTable("sessions").set({ last_seen_at: iso() }).where("id_hash", "=", sha256(id)).execute();
      },
      drop: dropSession,
      dropAllOf: async (userId: number) =>
        Number((await db.deleteFrom("sessions").where("user_id", "=", userId).executeTakeFirst()).numDeletedRows),
      dropIdle: async (idleSince: string) =>
        Number(
          (await db.deleteFrom("sessions").where("last_seen_at", "<=", idleSince).executeTakeFirst()).numDeletedRows,
        ),
    },
    meta: async (name: string): Promise<string | null> =>
      (await db.selectFrom("app_meta").select("value").where("name", "=", name).executeTakeFirst())?.value ?? null,
    setMeta: async (name: string, value: string) => {
      await db
        .insertInto("app_meta")
        .values({ name, value })
        .onConflict((oc) => oc.column("name").doUpdateSet({ value }))
        .execute();
    },
    /** Tries at a secret (a password, a link's token) per key (an account, an address): one count for every node. */
    signInTries: {
      /**
       * One try more for each key, taken in one statement, unless the key already has `limit` tries whose last is
       * newer than `staleBefore`; older tries are forgotten. The keys taken, with their tries this one included: a
       * key missing is locked. The row's lock makes it atomic on PostgreSQL as on SQLite: of two statements at once,
       * the second sees the first's count.
       */
      async take(keys: readonly string[], limit: number, staleBefore: string): Promise<Map<string, number>> {
        const at = iso();
        // Always in the same order, so that two statements wait for each other's rows without a deadlock.
        const values = [...keys].sort().map((key) => ({ key, tries: 1, last_at: at }));
        const rows = await db
          .insertInto("sign_in_tries")
          .values(values)
          .onConflict((oc) =>
            oc
              .column("key")
              .doUpdateSet((eb) => ({
                tries: eb
                  .case()
                  .when("sign_in_tries.last_at", "<", staleBefore)
                  .then(eb.lit(1))
                  .else(eb(eb.ref("sign_in_tries.tries"), "+", eb.lit(1)))
                  .end(),
                last_at: eb.ref("excluded.last_at"),
              }))
              .where((eb) =>
                eb.or([eb("sign_in_tries.tries", "<", limit), eb("sign_in_tries.last_at", "<", staleBefore)]),
              ),
          )
          .returning(["key", "tries"])
          .execute();
        return new Map(rows.map((row) => [row.key, Number(row.tries)]));
      },
      /** The newest last try of these keys; null when none has a try. */
      async lastAt(keys: readonly string[]): Promise<string | null> {
        const row = await db
          .selectFrom("sign_in_tries")
          .select((eb) => eb.fn.max("last_at").as("at"))
          .where("key", "in", keys)
          .executeTakeFirst();
        return row?.at ?? null;
      },
      /** A try given back: it was taken for a success, or for nothing. */
      async giveBack(key: string): Promise<void> {
        await db
          .updateTable("sign_in_tries")
          .set((eb) => ({ tries: eb(eb.ref("tries"), "-", eb.lit(1)) }))
          .where("key", "=", key)
          .where("tries", ">", 0)
          .execute();
      },
      async forget(key: string): Promise<void> {
        await db.deleteFrom("sign_in_tries").where("key", "=", key).execute();
      },
      /** Forgets the tries whose last is older than `staleBefore`: `take` would count them from 1 again. */
      async prune(staleBefore: string): Promise<void> {
        await db.deleteFrom("sign_in_tries").where("last_at", "<", staleBefore).execute();
      },
    },
    /** The value kept under `name`, or `value` kept now: of two nodes starting at once, both get the first kept. */
    async keptMeta(name: string, value: string): Promise<string> {
      await db
        .insertInto("app_meta")
        .values({ name, value })
        .onConflict((oc) => oc.column("name").doNothing())
        .execute();
      return (await db.selectFrom("app_meta").select("value").where("name", "=", name).executeTakeFirstOrThrow()).value;
    },
  };
}

export type UsersStore = ReturnType<typeof openUsersStore>;
