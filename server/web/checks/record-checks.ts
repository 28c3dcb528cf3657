import type { User } from "../../../src/contract/accounts.ts";
import { loadDecodingTable } from "../../../src/contract/decoding/decode.ts";
import type { Provenance } from "../../../src/contract/envelopes.ts";
import type { License } from "../../../src/contract/license.ts";
import { stateCodeOf } from "../../../src/contract/states.ts";
import { licenseVerdict, notCoveredReason, notFoundReason, type Verdict } from "../../../src/contract/verdict.ts";
import type { WatchEntry } from "../../../src/contract/watchlist.ts";
import { NotCoveredError, type ServiceReader } from "../watchlist/service-reader.ts";
import { sha256, type ChecksLog, type NewLogEntry } from "./checks-log.ts";

/** Seeing the same unchanged record again within this long adds no entry. */
export const SAME_CHECK_WITHIN_MS = 60 * 60 * 1000;

type Person = Pick<User, "email" | "name" | "role">;

/** One verdict a person was shown, before the hour rule decides whether it is a new entry. */
interface Seen {
  state: string;
  license: string;
  verdict: Verdict;
  record: License | null;
  provenance: Provenance | null;
  detail: string | null;
}

/** The clerk's date, and their zone when it is one: an unknown zone is read as UTC and recorded as none. */
function clerkDay(zone: string | undefined, at: Date): { today: string; zone: string | null } {
  if (zone) {
    try {
      const parts = new Intl.DateTimeFormat("en-US", {
        timeZone: zone,
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
      }).formatToParts(at);
      const part = (type: string) => parts.find((p) => p.type === type)!.value;
      return { today: `${part("year")}-${part("month")}-${part("day")}`, zone };
    } catch {
      // RangeError: not an IANA zone.
    }
  }
  return { today: at.toISOString().slice(0, 10), zone: null };
}

const asOfOf = (provenance: Provenance | null) => (provenance ? (provenance.as_of ?? provenance.source.as_of) : null);

// Licenses asked of the record at once: well under SQLite's limit of bound values.
const LOOKUP_LICENSES = 500;

/** The newest entry that already holds each state/license/sameness `email` saw since `since`. */
async function earlierChecks(log: ChecksLog, email: string, seen: readonly (Seen | null)[], since: string) {
  const byState = new Map<string, Set<string>>();
  for (const s of seen) if (s) byState.set(s.state, (byState.get(s.state) ?? new Set()).add(s.license));
  const found = new Map<string, number>();
  for (const [state, licenses] of byState) {
    const all = [...licenses];
    for (let start = 0; start < all.length; start += LOOKUP_LICENSES) {
      const part = all.slice(start, start + LOOKUP_LICENSES);
      for (const entry of await log.recentChecks(email, state, part, since)) {
        const key = `${state}/${entry.license}/${entry.sameness}`;
        // Newest first: the first of a key is the one to answer with.
        if (!found.has(key)) found.set(key, entry.id);
      }
    }
  }
  return found;
}

/**
 * Writes what was seen, in one transaction, except what the same person saw of the same unchanged record
 * within the hour: that entry's id is returned instead. One id per item, in order; null for a null item.
 */
async function write(
  log: ChecksLog,
  user: Person,
  action: NewLogEntry["action"],
  zone: string | null,
  at: Date,
  seen: readonly (Seen | null)[],
) {
  const since = new Date(at.getTime() - SAME_CHECK_WITHIN_MS).toISOString();
  const earlier = await earlierChecks(log, user.email, seen, since);
  const ids: (number | null)[] = seen.map(() => null);
  const fresh: NewLogEntry[] = [];
  const freshOf = new Map<string, number>();
  const waiting: [index: number, fresh: number][] = [];
  for (const [i, s] of seen.entries()) {
    if (s === null) continue;
    const record_json = s.record && JSON.stringify(s.record);
    const sameness = record_json === null ? s.verdict.verdict : sha256(record_json);
    const key = `${s.state}/${s.license}/${sameness}`;
    const earlierId = earlier.get(key);
    if (earlierId !== undefined) {
      ids[i] = earlierId;
      continue;
    }
    // The same license twice in one list is one check.
    let k = freshOf.get(key);
    if (k === undefined) {
      k = fresh.length;
      freshOf.set(key, k);
      fresh.push({
        action,
        zone,
        user,
        state: s.state,
        license: s.license,
        verdict: s.verdict.verdict,
        reason: s.verdict.reason,
        record_json,
        provenance_json: s.provenance && JSON.stringify(s.provenance),
        detail: s.detail,
      });
    }
    waiting.push([i, k]);
  }
  const written = await log.appendMany(fresh);
  for (const [i, k] of waiting) ids[i] = written[k]!.id;
  return ids;
}

export interface RecordChecksOptions {
  log: ChecksLog;
  reader: ServiceReader;
  user: Person;
  action: "license page" | "verify";
  /** The clerk's IANA time zone, as their browser said. */
  zone?: string;
  rows: readonly { state: string; license: string }[];
  now?: () => Date;
}

/**
 * Records the verdicts a page has just shown: the server reads the licenses itself and judges them by the
 * rule the page uses, so the record holds what the service served, not what a browser claims. A row that
 * names no state is not a check (null). A failure to read throws: nothing of that call is recorded.
 */
export async function recordChecks({
  log,
  reader,
  user,
  action,
  zone: given,
  rows,
  now = () => new Date(),
}: RecordChecksOptions): Promise<(number | null)[]> {
  const { today, zone } = clerkDay(given, now());
  const byState = new Map<string, Set<string>>();
  for (const row of rows) {
    const state = stateCodeOf(row.state);
    if (state === null || row.license.trim() === "") continue;
    byState.set(state, (byState.get(state) ?? new Set()).add(row.license.trim()));
  }

  const answers = new Map<string, Omit<Seen, "detail">>();
  for (const [state, numbers] of byState) {
    const decoding = await loadDecodingTable(state);
    const all = [...numbers];
    for (let start = 0; start < all.length; start += reader.batchSize) {
      const part = all.slice(start, start + reader.batchSize);
      let read: Awaited<ReturnType<ServiceReader["read"]>> | null = null;
      try {
        read = await reader.read(state, part);
      } catch (error) {
        if (!(error instanceof NotCoveredError)) throw error;
      }
      part.forEach((license, i) => {
        const record = read?.licenses[i] ?? null;
        const provenance = read?.provenance[i] ?? null;
        const verdict: Verdict =
          read === null
            ? { verdict: "not covered", reason: notCoveredReason(state) }
            : record === null
              ? { verdict: "not found", reason: notFoundReason(state) }
              : licenseVerdict(record, { today, asOf: asOfOf(provenance), decoding });
        answers.set(`${state}/${license}`, {
          state,
          license,
          verdict: { verdict: verdict.verdict, reason: verdict.reason },
          record,
          provenance: record && provenance,
        });
      });
    }
  }

  const asked = rows.map((row, i) => {
    const state = stateCodeOf(row.state);
    const answer = state === null ? undefined : answers.get(`${state}/${row.license.trim()}`);
    return answer ? { ...answer, detail: action === "verify" ? `row ${i + 1} of ${rows.length}` : null } : null;
  });
  return write(log, user, action, zone, now(), asked);
}

export interface RecordWatchlistSeenOptions {
  log: ChecksLog;
  user: Person;
  zone?: string;
  /** The watched licenses whose changes were marked seen, as the watchlist holds them. */
  entries: readonly WatchEntry[];
  now?: () => Date;
}

/**
 * Records a watchlist's changes marked seen: one "watchlist" entry per license, from the record the watchlist
 * holds (what the page showed), read from no service. A license not answered yet showed no verdict (null).
 */
export async function recordWatchlistSeen({
  log,
  user,
  zone: given,
  entries,
  now = () => new Date(),
}: RecordWatchlistSeenOptions): Promise<(number | null)[]> {
  const at = now();
  const { today, zone } = clerkDay(given, at);
  const seen: (Seen | null)[] = [];
  for (const entry of entries) {
    const { state, license, record, provenance } = entry;
    const kept = { state, license, record, provenance: record && provenance, detail: entry.outcome };
    if (entry.outcome === "not covered") {
      seen.push({ ...kept, verdict: { verdict: "not covered", reason: notCoveredReason(state) } });
    } else if (entry.outcome === "no longer listed") {
      seen.push({ ...kept, verdict: { verdict: "not found", reason: notFoundReason(state) } });
    } else if (entry.outcome === "found" && record) {
      const decoding = await loadDecodingTable(state);
      const { verdict, reason } = licenseVerdict(record, { today, asOf: asOfOf(provenance), decoding });
      seen.push({ ...kept, verdict: { verdict, reason } });
    } else {
      seen.push(null);
    }
  }
  return write(log, user, "watchlist", zone, at, seen);
}
