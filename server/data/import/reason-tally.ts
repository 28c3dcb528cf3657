import type { RowRef } from "../sources/source-adapter.ts";

const EXAMPLES = 5;

export interface TalliedReason<E> {
  reason: string;
  count: number;
  /** Where the first few were (rows), or which they were (licenses). */
  examples: E[];
}

/** Outcomes by reason (rows skipped, rows mended, licenses refused), with the first few of each. */
export class ReasonTally<E = RowRef> {
  private readonly reasons = new Map<string, TalliedReason<E>>();
  total = 0;

  add(example: E, reason: string): void {
    this.total++;
    let entry = this.reasons.get(reason);
    if (!entry) {
      entry = { reason, count: 0, examples: [] };
      this.reasons.set(reason, entry);
    }
    entry.count++;
    if (entry.examples.length < EXAMPLES) entry.examples.push(example);
  }

  /** Most frequent first. */
  list(): TalliedReason<E>[] {
    return [...this.reasons.values()].sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
  }
}
