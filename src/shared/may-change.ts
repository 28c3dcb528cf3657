import type { Session } from "../contract/accounts.ts";

/**
 * Whether the page offers changes (watch, add, check now, mark seen, remove): not to an auditor, who reads only
 * (the server refuses them anyway). Offered without the app's server, where no one signs in, and while the
 * session is on its way.
 */
export function mayChange(session: Session | null | undefined): boolean {
  return session?.user.role !== "auditor";
}
