import { z } from "zod/mini";
import { ProvenanceSchema } from "./envelopes.ts";
import { LicenseSchema } from "./license.ts";
import { StateCodeSchema } from "./states.ts";

/**
 * The team's watchlist: routes of the app's own server (`/api/watchlist…`), not of the v2 service,
 * which stays read-only. The app and the server both read these shapes from here.
 */
export const WATCHLIST_API = "/api/watchlist";

/** The most licenses one team may watch. */
export const MAX_WATCHED = 10_000;

/** What a check compares between what was last seen and what the service says now. */
export const WATCH_FIELDS = ["status", "expires", "business", "owner", "address", "listing"] as const;
export type WatchField = (typeof WATCH_FIELDS)[number];

/** The values of `listing`: a license the service stopped returning is no longer listed. */
export const LISTED = "listed";
export const NO_LONGER_LISTED = "no longer listed";

const Timestamp = z.iso.datetime();
const Count = z.number().check(z.int(), z.nonnegative());

/** One change a check found: `from` and `to` as the record said them (an address as one line), null where the record gave none. */
export const WatchChangeSchema = z.object({
  id: Count,
  state: StateCodeSchema,
  license: z.string(),
  field: z.enum(WATCH_FIELDS),
  from: z.nullable(z.string()),
  to: z.nullable(z.string()),
  detected_at: Timestamp,
  /** The license's page in the team's app. */
  link: z.string(),
  /** True once someone pressed "Mark all as seen" after it was found. */
  seen: z.boolean(),
});

/** What the last check (or the add) learnt of a watched license. */
export const WATCH_OUTCOMES = ["found", "no longer listed", "not covered", "unchecked"] as const;

export const WatchEntrySchema = z.object({
  state: StateCodeSchema,
  license: z.string(),
  added_at: Timestamp,
  /** When the service last answered for it; null before the first answer. */
  checked_at: z.nullable(Timestamp),
  outcome: z.enum(WATCH_OUTCOMES),
  /** The record as last seen: kept when the license stops being listed, so the page can say what it was. */
  record: z.nullable(LicenseSchema),
  /** Where that record came from; null from a service without our provenance extension. */
  provenance: z.nullable(ProvenanceSchema),
  /** Changes to it not yet marked as seen. */
  unseen: Count,
});

export const CHECK_TRIGGERS = ["start-up", "schedule", "check now"] as const;

export const CheckSchema = z.object({
  id: Count,
  trigger: z.enum(CHECK_TRIGGERS),
  started_at: Timestamp,
  /** Null while it runs. */
  finished_at: z.nullable(Timestamp),
  /** Licenses answered so far, of `total`. */
  checked: Count,
  total: Count,
  changes: Count,
  /** Why some licenses could not be checked (the service down, a state outside the key); null when all were. */
  error: z.nullable(z.string()),
});

export const DeliverySchema = z.object({
  kind: z.enum(["webhook", "email"]),
  /** What it carries: "3 changes", "expiring within 30 days". */
  subject: z.string(),
  created_at: Timestamp,
  attempts: Count,
  /** The last failure; null before the first attempt. */
  last_error: z.nullable(z.string()),
  /** When it is tried again; null once it was given up. */
  next_attempt_at: z.nullable(Timestamp),
});

export const WatchlistSchema = z.object({
  entries: z.array(WatchEntrySchema),
  /** Changes not yet marked as seen, newest first. */
  changes: z.array(WatchChangeSchema),
  /** When someone last pressed "Mark all as seen"; null if never. */
  looked_at: z.nullable(Timestamp),
  /** The running check, else the last one; null before the first. */
  check: z.nullable(CheckSchema),
  /** When the next scheduled check starts; null when none is scheduled. */
  next_check_at: z.nullable(Timestamp),
  alerts: z.object({
    webhook: z.boolean(),
    email: z.boolean(),
    /** Deliveries not made yet (waiting for a retry) or given up on: a clerk should know an alert did not go. */
    undelivered: z.array(DeliverySchema),
  }),
  max: Count,
});

export const WatchlistResponseSchema = z.object({ data: WatchlistSchema });
export const WatchEntryResponseSchema = z.object({ data: z.nullable(WatchEntrySchema) });
export const CheckResponseSchema = z.object({ data: CheckSchema });
/** `GET /api/watchlist/check`: the running check, else the last one; null before the first. Cheap to ask while one runs. */
export const LastCheckResponseSchema = z.object({ data: z.nullable(CheckSchema) });

/** One row to add: `row` is its place in the clerk's list, echoed in the answer. */
export const WatchAddRowSchema = z.object({
  row: z.number().check(z.int(), z.positive()),
  // Cells as a spreadsheet gave them: one too long for a number is that row's error, not the whole list's.
  state: z.string().check(z.maxLength(1000)),
  license: z.string().check(z.maxLength(1000)),
});

/** The longest license number the watchlist takes. */
export const MAX_NUMBER_LENGTH = 100;

export const WatchAddRequestSchema = z.object({
  rows: z.array(WatchAddRowSchema).check(z.minLength(1), z.maxLength(MAX_WATCHED)),
});

/** `POST /api/watchlist/seen`: the changes up to this id (the newest one the clerk was shown) are seen. */
export const WatchSeenRequestSchema = z.object({
  up_to: Count,
  /** The clerk's time zone: the changes seen are recorded as checks (src/contract/checks.ts). */
  zone: z.optional(z.string().check(z.maxLength(64))),
});

export const WATCH_ADD_OUTCOMES = ["added", "already watched", "error"] as const;

export const WatchAddResultSchema = z.object({
  row: Count,
  state: z.string(),
  license: z.string(),
  outcome: z.enum(WATCH_ADD_OUTCOMES),
  /** Why the row was not added, in words a clerk can act on; null when it was. */
  error: z.nullable(z.string()),
});

export const WatchAddResponseSchema = z.object({
  data: z.object({
    rows: z.array(WatchAddResultSchema),
    added: Count,
    /** Licenses watched after the add. */
    watched: Count,
  }),
});

/** The JSON POSTed to WATCH_WEBHOOK_URL when a check finds changes, signed in X-Watch-Signature. */
export const WatchWebhookSchema = z.object({
  /** The same on every retry of one delivery: a receiver that sees it twice can drop the second. */
  delivery_id: z.string(),
  event: z.literal("watchlist.changes"),
  check_id: Count,
  // A change as the page has it, less what only the page needs.
  changes: z.array(z.omit(WatchChangeSchema, { id: true, seen: true })),
});

export type WatchChange = z.infer<typeof WatchChangeSchema>;
export type WatchEntry = z.infer<typeof WatchEntrySchema>;
export type WatchCheck = z.infer<typeof CheckSchema>;
export type WatchDelivery = z.infer<typeof DeliverySchema>;
export type Watchlist = z.infer<typeof WatchlistSchema>;
export type WatchAddRow = z.infer<typeof WatchAddRowSchema>;
export type WatchAddResult = z.infer<typeof WatchAddResultSchema>;
export type WatchWebhook = z.infer<typeof WatchWebhookSchema>;
