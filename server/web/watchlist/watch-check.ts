import type { Provenance } from "../../../src/contract/envelopes.ts";
import { licenseDates, type License } from "../../../src/contract/license.ts";
import { LISTED, NO_LONGER_LISTED, type WatchCheck, type WatchEntry } from "../../../src/contract/watchlist.ts";
import { NotCoveredError, type ServiceReader } from "./service-reader.ts";
import type { Answer, NewChange, WatchStore } from "./watch-store.ts";

/** An address as one line, the way a change names it: "12 Main St, Suite 4, Albany, NY 12207". */
export function addressLine({ address }: License): string {
  const street = [address.line_1, address.line_2].filter(Boolean).join(", ");
  return `${street}, ${address.city}, ${address.state} ${address.zip}`.replace(/\s+/g, " ").trim();
}

const COMPARED: readonly [NewChange["field"], (license: License) => string | null][] = [
  ["status", (l) => l.status.trim() || null],
  ["expires", (l) => licenseDates(l).expires],
  ["business", (l) => l.business.trim() || null],
  ["owner", (l) => l.owner.trim() || null],
  ["address", addressLine],
];

/** What changed from what was last seen of a license to what the service says now. */
export function changesBetween(
  before: { outcome: WatchEntry["outcome"]; record: License | null },
  now: License | null,
): Omit<NewChange, "state" | "license">[] {
  const changes: Omit<NewChange, "state" | "license">[] = [];
  if (now === null) {
    // Only a license that was there goes: one already gone, or never seen, has nothing to lose.
    if (before.outcome !== "no longer listed" && before.record !== null)
      changes.push({ field: "listing", from: LISTED, to: NO_LONGER_LISTED });
    return changes;
  }
  if (before.outcome === "no longer listed") changes.push({ field: "listing", from: NO_LONGER_LISTED, to: LISTED });
  if (before.record === null) return changes;
  for (const [field, value] of COMPARED) {
    const from = value(before.record);
    const to = value(now);
    if (from !== to) changes.push({ field, from, to });
  }
  return changes;
}

/**
 * One check: every watched license this check has not answered for yet is read from the service, a
 * state at a time in batches, and each batch is written with the changes it found in one transaction.
 * A check a restart interrupted (or another node's death, or a slice's end) is resumed by the next run, which
 * skips what it already wrote: no change is recorded twice, and its alerts are queued once, when it finishes.
 * True when it went through every license; false when told to stop first.
 */
export async function runCheck(
  store: WatchStore,
  reader: ServiceReader,
  check: WatchCheck,
  { now = () => new Date(), stopped = () => false }: { now?: () => Date; stopped?: () => boolean } = {},
): Promise<boolean> {
  const byState = new Map<string, Awaited<ReturnType<WatchStore["toCheck"]>>>();
  for (const entry of await store.toCheck(check.id)) {
    const list = byState.get(entry.state) ?? [];
    list.push(entry);
    byState.set(entry.state, list);
  }
  for (const [state, entries] of byState) {
    for (let start = 0; start < entries.length; start += reader.batchSize) {
      // A stop leaves the check unfinished: the next start resumes it from here.
      if (stopped()) return false;
      const part = entries.slice(start, start + reader.batchSize);
      let licenses: (License | null)[];
      let provenance: (Provenance | null)[];
      try {
        ({ licenses, provenance } = await reader.read(
          state,
          part.map((e) => e.license),
        ));
      } catch (error) {
        if (error instanceof NotCoveredError) {
          const answers = part.map((e): Answer => ({ ...e, state, outcome: "not covered" }));
          await store.recordAnswers(
            check.id,
            now().toISOString(),
            answers,
            [],
            `${state.toUpperCase()} is not covered by the app's API key`,
          );
          continue;
        }
        // The rest of the state is not asked: one failure is likely the next one's too.
        const rest = entries.slice(start).map((e) => ({ state, license: e.license }));
        await store.passOver(check.id, rest, `${state.toUpperCase()}: ${(error as Error).message}`);
        break;
      }
      const answers: Answer[] = [];
      const changes: NewChange[] = [];
      part.forEach((entry, i) => {
        const record = licenses[i] ?? null;
        for (const change of changesBetween(entry, record)) changes.push({ state, license: entry.license, ...change });
        answers.push(
          record
            ? { state, license: entry.license, outcome: "found", record, provenance: provenance[i] ?? null }
            : // The last record seen is kept, so the page can say what a license no longer listed was.
              {
                state,
                license: entry.license,
                outcome: entry.record ? "no longer listed" : "unchecked",
                record: entry.record,
                provenance: entry.provenance,
              },
        );
      });
      await store.recordAnswers(check.id, now().toISOString(), answers, changes, null);
    }
  }
  return true;
}
