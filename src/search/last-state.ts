import { isStateCode } from "../contract/states.ts";

const KEY = "license-lookup:last-state";

// Storage can be switched off or full; remembering the state is a convenience, never a failure.
export function lastState(): string {
  try {
    const value = localStorage.getItem(KEY) ?? "";
    return isStateCode(value) ? value : "";
  } catch {
    return "";
  }
}

export function rememberState(state: string): void {
  try {
    localStorage.setItem(KEY, state);
  } catch {
    /* see above */
  }
}
