import type { GivenRow, LogAction, LogEntry } from "../contract/checks.ts";
import type { License } from "../contract/license.ts";
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

/** "NJ, 0707-33-003-007, White Horse": what the clerk gave, as they wrote it. */
export function givenText(given: GivenRow): string {
  return [given.state, given.license, given.business, given.address].filter(Boolean).join(", ");
}

/**
 * "You gave NJ, 0707-33-003-007, White Horse; the state’s record names TAVERN 292": what the clerk gave beside what
 * the record it was held to says, where they gave a name or an address to hold it to.
 */
export function givenWords(given: GivenRow, record: License | null): string {
  const gave = `You gave ${givenText(given) || "an empty row"}`;
  if (!record || (!given.business && !given.address)) return gave;
  const named = record.business || record.owner || "no one";
  const at = given.address ? ` at ${record.address.line_1 || "no street given"}` : "";
  return `${gave}; the state’s record names ${named}${at}`;
}
