import type { LogAction, LogEntry } from "../contract/checks.ts";
import { entryTime } from "./entry-time.ts";

/** What each entry's action reads as, leading a receipt's sentence: "Checked by Maria Lopez (maria@…)". */
const ACTION_WORDS: Record<LogAction, string> = {
  "license page": "Checked on a license page",
  verify: "Checked in a Verify list",
  watchlist: "Seen as a watchlist change",
  "sign-in": "Signed in",
  "sign-in failed": "Failed sign-in",
  "sign-out": "Signed out",
  "user added": "User added",
  "role changed": "Role changed",
  "user removed": "User removed",
  "password set": "Password set",
  "sessions ended": "Sessions ended",
  "alerts changed": "Watchlist alerts changed",
};

/** The action as a short label, for the Checks table. */
export function actionLabel(action: LogAction): string {
  return ACTION_WORDS[action];
}

/** "Maria Lopez (maria@example.com)", the email alone without a name, "an unknown person" without either. */
export function whoWords(entry: Pick<LogEntry, "user_name" | "user_email">): string {
  const { user_name: name, user_email: email } = entry;
  if (name && email) return `${name} (${email})`;
  return email ?? name ?? "someone without an account";
}

/** "Checked by … on March 3, 2027 at 10:02 EST", or for an entry that is not a check "Signed in by … on …". */
export function entryOpening(entry: LogEntry): string {
  const { date, time } = entryTime(entry.at, entry.zone);
  const when = `on ${date} at ${time}`;
  const who = whoWords(entry);
  if (entry.verdict !== null) return `Checked by ${who} ${when}`;
  if (entry.action === "sign-in failed") return `Failed sign-in as ${who} ${when}`;
  return `${ACTION_WORDS[entry.action]} by ${who} ${when}`;
}
