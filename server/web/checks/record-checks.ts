import type { User } from "../../../src/contract/accounts.ts";
import type { GivenRow, RecordRow } from "../../../src/contract/checks.ts";
import { loadDecodingTable } from "../../../src/contract/decoding/decode.ts";
import type { DecodingTable } from "../../../src/contract/decoding/decoding-table.ts";
import type { Provenance, StateCoverage } from "../../../src/contract/envelopes.ts";
import type { License } from "../../../src/contract/license.ts";
import { nearNumbers } from "../../../src/contract/near-numbers.ts";
import { sourcesCover } from "../../../src/contract/record-source.ts";
import {
  givenProblem,
  nameMatches,
  pageGiven,
  rowVerdict,
  sameNumberLines,
  type RowRead,
  type RowVerdict,
} from "../../../src/contract/row-verdict.ts";
import { watchedRead, watchedVerdict } from "../../../src/contract/watched-verdict.ts";
import { stateCodeOf } from "../../../src/contract/states.ts";
import type { WatchEntry } from "../../../src/contract/watchlist.ts";
import { NotCoveredError, type ServiceReader } from "../watchlist/service-reader.ts";
import { sha256, shownKey, type ChecksLog, type NewLogEntry } from "./checks-log.ts";

/** Seeing the same thing shown again within this long adds no entry. */
export const SAME_CHECK_WITHIN_MS = 60 * 60 * 1000;

type Person = Pick<User, "email" | "name" | "role">;

/** One verdict a person was shown, before the hour rule decides whether it is a new entry. */
interface Seen {
  state: string | null;
  license: string | null;
  shown: RowVerdict;
  /** What the clerk gave, for a Verify row; null elsewhere. */
  given: GivenRow | null;
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

/**
 * Writes what was seen, in one transaction, except what the same person was shown the same of (the same record,
 * verdict, reason and row given) within the hour: that entry's id is returned instead. One id per item, in order;
 * null for a null item.
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
  const earlier = new Map<string, number>();
  // Newest first: the first of a key is the one to answer with.
  for (const { id, shown } of await log.recentChecks(user.email, since))
    if (!earlier.has(shown)) earlier.set(shown, id);
  const ids: (number | null)[] = seen.map(() => null);
  const fresh: NewLogEntry[] = [];
  const freshOf = new Map<string, number>();
  const waiting: [index: number, fresh: number][] = [];
  for (const [i, s] of seen.entries()) {
    if (s === null) continue;
    const { verdict, reason, record, provenance } = s.shown;
    const record_json = record && JSON.stringify(record);
    const given_json = s.given && JSON.stringify(s.given);
    const key = shownKey({
      state: s.state,
      license: s.license,
      verdict,
      reason,
      record_sha256: record_json && sha256(record_json),
      given_json,
    });
    const earlierId = earlier.get(key);
    if (earlierId !== undefined) {
      ids[i] = earlierId;
      continue;
    }
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
        verdict,
        reason,
        record_json,
        provenance_json: record && provenance && JSON.stringify(provenance),
        detail: s.detail,
        given_json,
      });
    }
    waiting.push([i, k]);
  }
  const written = await log.appendMany(fresh);
  for (const [i, k] of waiting) ids[i] = written[k]!.id;
  return ids;
}

/** What the service serves of one state, read once however many rows ask. */
interface StateReads {
  /** By number; a state outside the key holds none. */
  records: Map<string, { record: License | null; provenance: Provenance | null }>;
  covered: boolean;
}

/** Reads `numbers` of `state` a batch at a time into `into`; a state outside the key is marked not covered. */
async function readNumbers(reader: ServiceReader, state: string, numbers: readonly string[], into: StateReads) {
  const all = numbers.filter((n) => !into.records.has(n));
  for (let start = 0; start < all.length && into.covered; start += reader.batchSize) {
    const part = all.slice(start, start + reader.batchSize);
    try {
      const read = await reader.read(state, part);
      part.forEach((n, i) =>
        into.records.set(n, { record: read.licenses[i] ?? null, provenance: read.provenance[i] ?? null }),
      );
    } catch (error) {
      if (!(error instanceof NotCoveredError)) throw error;
      into.covered = false;
    }
  }
}

export interface RecordChecksOptions {
  log: ChecksLog;
  reader: ServiceReader;
  user: Person;
  action: "license page" | "verify";
  /** The clerk's IANA time zone, as their browser said. */
  zone?: string;
  rows: readonly RecordRow[];
  now?: () => Date;
}

/**
 * Records the verdicts a page has just shown. The server reads the licenses itself (the record holds what the
 * service served, not what a browser claims) and decides each row by the function the page decides by
 * (`rowVerdict`), from what the clerk gave and what it read: the name and address given held to the record, the near
 * numbers of one not held looked up, the other lines giving the same number. A name-only row's number, as the page
 * matched it, is read and held to the name and address; where it does not bear them, or the page matched none or
 * several, the server searches by the name itself. A license page's row that names no state or number is not a
 * check (null). A failure to read throws: nothing of that call is recorded.
 */
export async function recordChecks({
  log,
  reader,
  user,
  action,
  zone: givenZone,
  rows,
  now = () => new Date(),
}: RecordChecksOptions): Promise<(number | null)[]> {
  const { today, zone } = clerkDay(givenZone, now());
  const verify = action === "verify";
  const given = rows.map((row) =>
    verify
      ? {
          line: row.line ?? null,
          state: row.state,
          license: row.license,
          business: row.business ?? "",
          address: row.address ?? "",
        }
      : pageGiven(row.state.trim(), row.license.trim()),
  );
  // A license page always names a state and a number; only a list's row can be unreadable.
  const problems = rows.map((row, i) => (verify ? givenProblem(given[i]!, row.read) : null));
  const codes = given.map((g) => stateCodeOf(g.state));
  const alsoOn = verify ? sameNumberLines(given.map((g, i) => ({ given: g, problem: problems[i] ?? null }))) : [];
  // What the states' sources cover, as the page had it: a Verify list decides "not covered" by it before reading, as
  // the page does; a license page needs it only to say what a number not found was looked for in.
  let coverage = verify ? await reader.coverage() : null;

  // Each state's numbers as given (and as a name-only row's page matched), read in batches.
  const reads = new Map<string, StateReads>();
  const numbersOf = new Map<string, Set<string>>();
  given.forEach((g, i) => {
    const state = codes[i];
    if (problems[i] !== null || !state || (!verify && g.license === "")) return;
    if (coverage !== null && !coverage.some((c) => c.state === state)) return;
    const number = g.license || rows[i]!.matched;
    if (number) numbersOf.set(state, (numbersOf.get(state) ?? new Set()).add(number));
  });
  for (const [state, numbers] of numbersOf) {
    const into: StateReads = { records: new Map(), covered: true };
    reads.set(state, into);
    await readNumbers(reader, state, [...numbers], into);
  }

  const decodings = new Map<string, DecodingTable | null>();
  const seen: (Seen | null)[] = [];
  for (const [i, g] of given.entries()) {
    const state = codes[i] ?? null;
    const problem = problems[i] ?? null;
    if (!verify && (state === null || g.license === "")) {
      seen.push(null);
      continue;
    }
    if (state !== null && !decodings.has(state)) decodings.set(state, await loadDecodingTable(state));
    const read = await readOf(reader, { state, problem, given: g, matched: rows[i]!.matched, verify }, coverage, reads);
    if (!verify && read.kind === "number" && read.record === null) coverage ??= await reader.coverage();
    const context = {
      today,
      decoding: (state && decodings.get(state)) ?? null,
      covers: sourcesCover(coverage?.find((c) => c.state === state)),
      alsoOn: alsoOn[i],
    };
    const shown = rowVerdict(g, read, context);
    seen.push({
      state,
      license: g.license || shown.record?.license || null,
      shown,
      given: verify ? g : null,
      detail: null,
    });
  }
  return write(log, user, action, zone, now(), seen);
}

/** What the service serves for one row, as the page read it: near numbers and name searches asked here as there. */
async function readOf(
  reader: ServiceReader,
  row: { state: string | null; problem: string | null; given: GivenRow; matched?: string; verify: boolean },
  coverage: StateCoverage[] | null,
  reads: Map<string, StateReads>,
): Promise<RowRead> {
  const { state, problem, given } = row;
  if (problem !== null || state === null) return { kind: "unreadable", problem: problem ?? "no state" };
  if (coverage !== null && !coverage.some((c) => c.state === state)) return { kind: "not covered" };
  const into: StateReads = reads.get(state) ?? { records: new Map(), covered: true };
  reads.set(state, into);

  if (given.license !== "") {
    const read = into.records.get(given.license);
    if (!into.covered || !read) return { kind: "not covered" };
    if (read.record || !row.verify) return { kind: "number", ...read, near: [] };
    // Not held as written: the forms the clerk probably meant, as the page offered them.
    const near = nearNumbers(given.license, (await loadDecodingTable(state))?.number?.format ?? null);
    await readNumbers(reader, state, near, into);
    if (!into.covered) return { kind: "not covered" };
    const held = near.flatMap((number) => {
      const record = into.records.get(number)?.record;
      return record ? [{ number, record }] : [];
    });
    return { kind: "number", ...read, near: held };
  }

  // A name-only row: the number the page matched, when its record bears the name and address given.
  const claimed = row.matched ? into.records.get(row.matched) : undefined;
  if (claimed?.record && nameMatches(given, [claimed.record]).length === 1) {
    return { kind: "name", matches: [claimed.record], provenance: claimed.provenance };
  }
  let found: License[];
  try {
    found = await reader.byName(state, given.business);
  } catch (error) {
    if (error instanceof NotCoveredError) return { kind: "not covered" };
    throw error;
  }
  const matches = nameMatches(given, found);
  if (matches.length !== 1) return { kind: "name", matches, provenance: null };
  await readNumbers(reader, state, [matches[0]!.license], into);
  return { kind: "name", matches, provenance: into.records.get(matches[0]!.license)?.provenance ?? null };
}

export interface RecordWatchlistSeenOptions {
  log: ChecksLog;
  /** Asked only what the service's data of each state covers, for a license no longer listed: as the page says it. */
  reader: Pick<ServiceReader, "coverage">;
  user: Person;
  zone?: string;
  /** The watched licenses whose changes were marked seen, as the watchlist holds them. */
  entries: readonly WatchEntry[];
  now?: () => Date;
}

/**
 * Records a watchlist's changes marked seen: one "watchlist" entry per license, from the record the watchlist
 * holds (what the page showed), judged by the function the page judges by. A license not answered yet showed no
 * verdict (null).
 */
export async function recordWatchlistSeen({
  log,
  reader,
  user,
  zone: givenZone,
  entries,
  now = () => new Date(),
}: RecordWatchlistSeenOptions): Promise<(number | null)[]> {
  const at = now();
  const { today, zone } = clerkDay(givenZone, at);
  const coverage = entries.some((e) => e.outcome === "no longer listed") ? await reader.coverage() : null;
  const seen: (Seen | null)[] = [];
  for (const entry of entries) {
    const { state, license } = entry;
    if (watchedRead(entry).kind === "unchecked") {
      seen.push(null);
      continue;
    }
    const context = {
      today,
      decoding: await loadDecodingTable(state),
      covers: sourcesCover(coverage?.find((c) => c.state === state)),
    };
    const shown = watchedVerdict(entry, context);
    // What the watchlist holds is what it showed, whatever the verdict: the record last seen of one no longer listed.
    seen.push({ state, license, shown, given: null, detail: entry.outcome });
  }
  return write(log, user, "watchlist", zone, at, seen);
}
