import { z } from "zod/mini";
import { ProvenanceSchema } from "./envelopes.ts";
import { LicenseSchema } from "./license.ts";

/**
 * The record of checks: every verdict a person was shown, and every sign-in and administrator's change, in one
 * log whose entries are chained by SHA-256 (each holds the hash of the one before it and of its own content).
 * Routes of the app's own server, not of the v2 service.
 */
export const CHECKS_API = "/api/checks";
/** The Checks page, and a receipt's permalink: `/checks/:id`. */
export const CHECKS_PAGE = "/checks";

/** What put an entry in the log. The first three are checks: a person was shown a verdict. */
export const LOG_ACTIONS = [
  "license page",
  "verify",
  "watchlist",
  "sign-in",
  "sign-in failed",
  "sign-out",
  "user added",
  "role changed",
  "user removed",
  "password set",
  "sessions ended",
  "alerts changed",
] as const;
export type LogAction = (typeof LOG_ACTIONS)[number];
export const CHECK_ACTIONS: readonly LogAction[] = ["license page", "verify", "watchlist"];

/** The verdict words, as the app shows them (src/contract/verdict.ts). */
export const LOGGED_VERDICTS = [
  "valid",
  "expired",
  "inactive",
  "pending",
  "check",
  "not found",
  "not covered",
] as const;

const Sha256 = z.string().check(z.regex(/^[0-9a-f]{64}$/));

// What a clerk pastes is kept as pasted: the longest cells of a list the app takes (a line that is no row lands in
// the state's cell whole).
export const GIVEN_CELL = 200;
export const GIVEN_TEXT = 1000;

/** What reading a list found wrong with a line, before its fields are looked at (their words: row-verdict.ts). */
export const READ_PROBLEMS = ["unclosed quote", "misplaced quotes", "too many columns"] as const;
export type ReadProblem = (typeof READ_PROBLEMS)[number];

/**
 * A row as the clerk gave it: the state, number, name and address as pasted or as the file held them, and its line
 * there (a header and blank lines counted, as a text editor or a spreadsheet numbers them); null off a list.
 */
export const GivenRowSchema = z.object({
  line: z.nullable(z.number().check(z.int(), z.positive())),
  state: z.string().check(z.maxLength(GIVEN_CELL)),
  license: z.string().check(z.maxLength(GIVEN_CELL)),
  business: z.string().check(z.maxLength(GIVEN_TEXT)),
  address: z.string().check(z.maxLength(GIVEN_TEXT)),
});
export type GivenRow = z.infer<typeof GivenRowSchema>;

export const LogEntrySchema = z.object({
  /** 1, 2, 3…: the chain's order; a gap is a removed entry. */
  id: z.number().check(z.int(), z.positive()),
  /** When, in UTC. */
  at: z.iso.datetime(),
  /** The clerk's time zone (IANA), as their browser said; null where it did not. */
  zone: z.nullable(z.string()),
  action: z.enum(LOG_ACTIONS),
  /** Who: as they were when it happened (a later rename does not rewrite it); null for a failed sign-in of no account. */
  user_email: z.nullable(z.string()),
  user_name: z.nullable(z.string()),
  user_role: z.nullable(z.string()),
  /** The license asked for; null for an entry that is not a check. */
  state: z.nullable(z.string()),
  license: z.nullable(z.string()),
  verdict: z.nullable(z.enum(LOGGED_VERDICTS)),
  reason: z.nullable(z.string()),
  /** The record exactly as the service served it (its JSON), and that JSON's SHA-256; null when there was none. */
  record_json: z.nullable(z.string()),
  record_sha256: z.nullable(Sha256),
  /** Where the record came from, as served; null when the service does not say. */
  provenance_json: z.nullable(z.string()),
  source_sha256: z.nullable(z.string()),
  as_of: z.nullable(z.string()),
  /** What else there is to say: "role member → auditor", the address a failed sign-in came from. */
  detail: z.nullable(z.string()),
  /**
   * What the clerk gave for a row of a Verify list (GivenRow as JSON), whatever the service held; null for other
   * entries, and for every entry written before it was kept. Hashed only where present: older entries still verify.
   */
  given_json: z.nullable(z.string()),
  /** The app's version that showed it. */
  app_version: z.string(),
  /** The hash of the entry before (64 zeros for the first) and of this entry's content with it. */
  prev_hash: Sha256,
  hash: Sha256,
});
export type LogEntry = z.infer<typeof LogEntrySchema>;

/** A stored entry with its record parsed back, for a receipt: what was shown then, never today's data. */
export const ReceiptSchema = z.object({
  entry: LogEntrySchema,
  record: z.nullable(LicenseSchema),
  provenance: z.nullable(ProvenanceSchema),
  given: z.nullable(GivenRowSchema),
});
export const ReceiptResponseSchema = z.object({ data: ReceiptSchema });

/** `GET /api/checks?user=&state=&license=&verdict=&from=&to=&action=&before=`: newest first, a page at a time. */
export const CHECKS_PAGE_SIZE = 100;
export const LogPageSchema = z.object({
  entries: z.array(LogEntrySchema),
  /** Pass as `before` for the next (older) page; null at the end. */
  next_before: z.nullable(z.number()),
  total: z.number(),
});
export const LogPageResponseSchema = z.object({ data: LogPageSchema });

/**
 * `GET /api/checks/chain`: whether the chain holds, and its head's signature where the server has CHECKS_KEY; walked
 * from the newest entry the server verified before (whole once a day), `npm run checks -- verify` walks it whole.
 */
export const ChainStateSchema = z.object({
  ok: z.boolean(),
  entries: z.number(),
  /** The newest entry's hash: what a digest carries outside the server. Null on an empty log. */
  head: z.nullable(Sha256),
  /** The first entry that breaks the chain, and how; null when it holds. */
  broken_at: z.nullable(z.number()),
  problem: z.nullable(z.string()),
  checked_at: z.iso.datetime(),
});
export type ChainState = z.infer<typeof ChainStateSchema>;
export const ChainStateResponseSchema = z.object({ data: ChainStateSchema });

/**
 * A row a page has shown a verdict for. A license page sends its state and number; a Verify list each row as the
 * clerk gave it, with its line, what reading the list found wrong with it, and for a row named only by business the
 * number the page matched (the server reads that record and holds it to the name and address given).
 */
export const RecordRowSchema = z.object({
  state: z.string().check(z.maxLength(GIVEN_CELL)),
  license: z.string().check(z.maxLength(GIVEN_CELL)),
  line: z.optional(z.number().check(z.int(), z.positive())),
  business: z.optional(z.string().check(z.maxLength(GIVEN_TEXT))),
  address: z.optional(z.string().check(z.maxLength(GIVEN_TEXT))),
  read: z.optional(z.array(z.enum(READ_PROBLEMS)).check(z.maxLength(READ_PROBLEMS.length))),
  matched: z.optional(z.string().check(z.maxLength(100))),
});
export type RecordRow = z.infer<typeof RecordRowSchema>;

/** `POST /api/checks`: the rows a page has just shown a verdict for; the server reads them and records what it served. */
export const MAX_RECORDED_ROWS = 10_000;
export const RecordChecksRequestSchema = z.object({
  action: z.enum(["license page", "verify"]),
  /** The clerk's time zone, `Intl.DateTimeFormat().resolvedOptions().timeZone`. */
  zone: z.optional(z.string().check(z.maxLength(64))),
  rows: z.array(RecordRowSchema).check(z.minLength(1), z.maxLength(MAX_RECORDED_ROWS)),
});
export type RecordChecksRequest = z.infer<typeof RecordChecksRequestSchema>;
/** One id per row, in order (the entry that already held it within the hour where nothing changed), null where none. */
export const RecordChecksResponseSchema = z.object({ data: z.object({ ids: z.array(z.nullable(z.number())) }) });
