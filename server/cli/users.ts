import { parseArgs } from "node:util";
import { existsSync } from "node:fs";
import { userInfo } from "node:os";
import { text } from "node:stream/consumers";
import { MIN_PASSWORD_LENGTH, ROLES, type Role } from "../../src/contract/accounts.ts";
import { AccountError, createAccounts } from "../web/accounts/accounts.ts";
import { databaseUrlFromEnv } from "../db/state-db.ts";
import { DEFAULT_APP_DB, openAppState } from "../web/app-db.ts";
import { APP_VERSION } from "../web/app-version.ts";
import { createChecksLog } from "../web/checks/checks-log.ts";
import { fail } from "./fail.ts";

const USAGE = `Manages who may sign in to the app (the app's database: DATABASE_URL's PostgreSQL when set,
else the file APP_DB, default ${DEFAULT_APP_DB}).

usage: npm run users -- add EMAIL --role admin|member|auditor [--name "Full Name"] [--password-stdin]
       npm run users -- list
       npm run users -- set-role EMAIL ROLE
       npm run users -- reset EMAIL [--password-stdin]
       npm run users -- end-sessions EMAIL
       npm run users -- remove EMAIL

  add and reset print, alone on the last line, a one-time link that sets the password (valid 72 hours);
  with --password-stdin the password is read from standard input instead (at least ${MIN_PASSWORD_LENGTH} characters).
  An account of the identity provider (OIDC_*) needs no password: add it, and it signs in there.
  --db FILE       the app's SQLite file, instead of DATABASE_URL or APP_DB
  --app-url URL   the app's address in links (default APP_URL, else http://127.0.0.1:4173)

Roles: member searches, verifies and watches; auditor reads every check and the watchlist but changes
nothing; admin also manages users and the watchlist's alerts. Each change is an entry of the record of checks.`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    db: { type: "string" },
    role: { type: "string" },
    name: { type: "string" },
    "password-stdin": { type: "boolean", default: false },
    "app-url": { type: "string", default: process.env.APP_URL || "http://127.0.0.1:4173" },
    help: { type: "boolean", default: false },
  },
});
const [command, email, roleArgument] = positionals;
if (values.help || !command) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 1);
}
// An explicit --db names a file; else DATABASE_URL, as the app reads it; else APP_DB.
let url: string | null = null;
try {
  url = values.db ? null : databaseUrlFromEnv(process.env);
} catch (error) {
  fail((error as Error).message);
}
const file = values.db ?? (process.env.APP_DB || DEFAULT_APP_DB);
if (!url && command !== "add" && !existsSync(file)) fail(`${file} does not exist: add a user first, or give --db`);

let state: Awaited<ReturnType<typeof openAppState>>;
try {
  state = await openAppState({ url, file });
} catch (error) {
  fail((error as Error).message);
}
const where = state.label;
const log = createChecksLog(state, { appVersion: APP_VERSION });
const operator = `npm run users (${userInfo().username})`;
const accounts = createAccounts({
  state,
  appUrl: values["app-url"],
  audit: (entry) => log.append({ ...entry, detail: `${entry.detail ?? ""}; by ${operator}` }),
});

function role(value: string | undefined): Role {
  if (!ROLES.includes(value as Role)) fail(`the role must be one of ${ROLES.join(", ")}, not "${value ?? ""}"`);
  return value as Role;
}
async function userOf(address: string | undefined) {
  if (!address) fail(`${command} needs the user's email`);
  const user = await accounts.store.userByEmail(address);
  if (!user) fail(`there is no user ${address} in ${where}`);
  return user;
}
async function password(): Promise<string> {
  const given = (await text(process.stdin)).replace(/\r?\n$/, "");
  if (given.length < MIN_PASSWORD_LENGTH) fail(`the password needs at least ${MIN_PASSWORD_LENGTH} characters`);
  return given;
}

try {
  switch (command) {
    case "add": {
      if (!email) fail("add needs the user's email");
      const { user, link } = await accounts.addUser(email, role(values.role), values.name ?? null, null);
      if (values["password-stdin"]) {
        await accounts.setPassword(user.id, await password(), null);
        console.log(`Added ${user.email} as ${user.role}, with the password given.`);
      } else {
        console.log(`Added ${user.email} as ${user.role}. Send them this link to set their password (valid 72 hours):`);
        console.log(link);
      }
      break;
    }
    case "list":
      console.log(["email", "role", "name", "password", "last sign-in", "sessions"].join("\t"));
      for (const u of await accounts.store.list(accounts.idleSince())) {
        console.log(
          [
            u.email,
            u.role,
            u.name ?? "-",
            u.has_password ? "set" : "-",
            u.last_sign_in_at ?? "never",
            u.active_sessions,
          ].join("\t"),
        );
      }
      break;
    case "set-role": {
      const user = await accounts.setRole((await userOf(email)).id, role(roleArgument ?? values.role), null);
      console.log(`${user.email} is now ${user.role}.`);
      break;
    }
    case "reset": {
      const user = await userOf(email);
      if (values["password-stdin"]) {
        await accounts.setPassword(user.id, await password(), null);
        console.log(`Set the password of ${user.email}.`);
      } else {
        const link = await accounts.resetLink(user.id, null);
        console.log(
          `Send ${user.email} this link to set a new password (valid 72 hours; the old one works until then):`,
        );
        console.log(link);
      }
      break;
    }
    case "end-sessions": {
      const user = await userOf(email);
      console.log(`Ended ${await accounts.endSessions(user.id, null)} session(s) of ${user.email}.`);
      break;
    }
    case "remove": {
      const user = await userOf(email);
      await accounts.removeUser(user.id, null);
      console.log(`Removed ${user.email}; their past checks stay in the record.`);
      break;
    }
    default:
      fail(`unknown command ${command}: use add, list, set-role, reset, end-sessions or remove (see --help)`);
  }
} catch (error) {
  if (error instanceof AccountError) fail(error.message.replace(/^./, (c) => c.toLowerCase()));
  throw error;
} finally {
  await state.close();
}
