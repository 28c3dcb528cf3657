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

// Apart, so that typing in the box writes the box alone, never thousands of answers again.
const DRAFT = "license-lookup:verify:draft:v1";
// v2: rows carry what the clerk gave and its line; a check kept in the v1 shape is not shown.
const CHECK = "license-lookup:verify:check:v2";

export function loadKept(): Kept {
  try {
    const draft = localStorage.getItem(DRAFT) ?? "";
    const check = JSON.parse(localStorage.getItem(CHECK) ?? "null") as Partial<SavedCheck> | null;
    const complete = check && Array.isArray(check.results) && typeof check.checkedAt === "string";
    return { draft, check: complete ? (check as SavedCheck) : null };
  } catch {
    return { draft: "", check: null };
  }
}

/** False when the browser would not keep it (storage full or turned off): the page says so. */
export function keepDraft(draft: string): boolean {
  return write(DRAFT, draft);
}

export function keepCheck(check: SavedCheck): boolean {
  return write(CHECK, JSON.stringify(check));
}

export function clearKept(): void {
  try {
    localStorage.removeItem(DRAFT);
    localStorage.removeItem(CHECK);
  } catch {
    // Nothing kept, nothing to clear.
  }
}

function write(key: string, value: string): boolean {
  try {
    localStorage.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}
