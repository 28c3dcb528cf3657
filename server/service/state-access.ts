import type { Caller } from "./key-repo.ts";
import type { LicenseRepo } from "../store/license-repo.ts";

/**
 * The lower-case state when the caller may read it and the service has data for it; otherwise null.
 * Both checks always run, so an unsupported and an out-of-scope state cost the same.
 */
export function accessibleState(raw: string, caller: Caller | null, licenses: LicenseRepo): string | null {
  const state = raw.toLowerCase();
  const wellFormed = /^[a-z]{2}$/.test(state);
  const supported = wellFormed && licenses.has(state);
  const inScope = wellFormed && caller !== null && caller.covers(state);
  return supported && inScope ? state : null;
}

/** The 404 detail for any state the caller cannot read: the same words whatever the state or the reason. */
export const STATE_UNAVAILABLE =
  "No license data for this state is available with this API key: check the state code, or ask for a key that covers the state.";
