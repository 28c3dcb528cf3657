import type { RowRef } from "./row-outcome.ts";

const EXAMPLES = 5;

export interface SkipReason {
  reason: string;
  count: number;
  /** Where the first few were. */
  examples: RowRef[];
}

/** Skipped rows by reason, with where the first few of each were. */
export class SkipTally {
  private readonly reasons = new Map<string, SkipReason>();
  total = 0;

  add(at: RowRef, reason: string): void {
    this.total++;
    let entry = this.reasons.get(reason);
    if (!entry) {
      entry = { reason, count: 0, examples: [] };
      this.reasons.set(reason, entry);
    }
    entry.count++;
    if (entry.examples.length < EXAMPLES) entry.examples.push(at);
  }

  /** Most frequent first. */
  list(): SkipReason[] {
    return [...this.reasons.values()].sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
  }
}
