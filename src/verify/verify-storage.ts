import type { RowResult } from "./verify-list.ts";

/** A list as checked, and its answers. */
export interface SavedCheck {
  results: RowResult[];
  /** When the check ran (ISO 8601, UTC). */
  checkedAt: string;
}

/** What the page keeps in this browser until the clerk clears it: the list in the box, and the last check. */
export interface Kept {
  draft: string;
  check: SavedCheck | null;
}

const KEY = "license-lookup:verify:v1";

export function loadKept(): Kept {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) ?? "null") as Partial<Kept> | null;
    const check = kept?.check;
    return {
      draft: typeof kept?.draft === "string" ? kept.draft : "",
      check: check && Array.isArray(check.results) && typeof check.checkedAt === "string" ? check : null,
    };
  } catch {
    return { draft: "", check: null };
  }
}

/** False when the browser would not keep it (storage full or turned off): the page says so. */
export function saveKept(kept: Kept): boolean {
  try {
    localStorage.setItem(KEY, JSON.stringify(kept));
    return true;
  } catch {
    return false;
  }
}

export function clearKept(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // Nothing kept, nothing to clear.
  }
}
