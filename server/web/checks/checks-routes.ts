import type { FastifyInstance, FastifyRequest } from "fastify";
import { Readable } from "node:stream";
import Papa from "papaparse";
import { z } from "zod/mini";
import type { Role, User } from "../../../src/contract/accounts.ts";
import {
  CHECKS_API,
  LOG_ACTIONS,
  LOGGED_VERDICTS,
  LogEntrySchema,
  RecordChecksRequestSchema,
  type GivenRow,
  type LogEntry,
} from "../../../src/contract/checks.ts";
import type { Provenance } from "../../../src/contract/envelopes.ts";
import type { License } from "../../../src/contract/license.ts";
import { stateCodeOf } from "../../../src/contract/states.ts";
import { sendProblem } from "../../http/problem.ts";
import { refuseOtherSites } from "../../http/same-origin.ts";
import { allow, MAY } from "../accounts/signed-in.ts";
import type { ServiceReader } from "../watchlist/service-reader.ts";
import type { ChecksLog, LogFilter } from "./checks-log.ts";
import { recordChecks } from "./record-checks.ts";

// A Verify list of 10,000 rows of long numbers is over Fastify's default megabyte; each row carries the name and
// address the clerk gave as well.
const BODY_LIMIT = 16 * 1024 * 1024;

const Day = z.string().check(
  z.regex(/^\d{4}-\d{2}-\d{2}$/),
  // A day no calendar has (2026-02-30, 9999-99-99) is no Date: refused, never thrown.
  z.refine((day) => {
    const at = new Date(`${day}T00:00:00Z`);
    return !Number.isNaN(at.getTime()) && at.toISOString().startsWith(day);
  }),
);
const FilterQuerySchema = z.object({
  user: z.optional(z.string()),
  state: z.optional(z.string()),
  license: z.optional(z.string()),
  verdict: z.optional(z.enum(LOGGED_VERDICTS)),
  action: z.optional(z.enum(LOG_ACTIONS)),
  from: z.optional(Day),
  to: z.optional(Day),
  before: z.optional(z.string().check(z.regex(/^[1-9]\d{0,15}$/))),
});

const FILTER_HELP =
  "Filter with user=EMAIL, state=NY, license=NUMBER, verdict (valid, expired, inactive, pending, check, not found, " +
  "not covered), action, from=YYYY-MM-DD and to=YYYY-MM-DD (UTC days, both included) and before=ID.";

/** The query's filter, a member's forced to their own entries; or the sentence that says what was wrong. */
function filterOf(request: FastifyRequest, user: User): LogFilter | string {
  // An empty field of the page's form is no filter.
  const given = Object.fromEntries(
    Object.entries(request.query as Record<string, unknown>).filter(([, v]) => v !== "" && v !== undefined),
  );
  const parsed = z.safeParse(FilterQuerySchema, given);
  if (!parsed.success) return `Some filters could not be read (${z.prettifyError(parsed.error)}). ${FILTER_HELP}`;
  const { user: email, state, license, verdict, action, from, to, before } = parsed.data;
  const code = state === undefined ? undefined : stateCodeOf(state);
  if (code === null) return `“${state}” is not a state: write it as NY or New York.`;
  return {
    user: audits(user) ? email : user.email,
    state: code,
    license: license?.trim(),
    verdict,
    action,
    from: from && `${from}T00:00:00.000Z`,
    to: to && nextDay(to),
    before: before === undefined ? undefined : Number(before),
  };
}

/** Whether `user` reads every person's checks, not only their own. */
const audits = (user: User) => (MAY.audit as readonly Role[]).includes(user.role);

function nextDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString();
}

/** A cell a spreadsheet would read as a formula (OWASP's CSV injection list, and NUL). */
const FORMULA_START = /^[=+\-@\t\r\0]/;
const CSV_COLUMNS = Object.keys(LogEntrySchema.shape) as (keyof LogEntry)[];

const csvLines = (lines: unknown[][]) =>
  `${Papa.unparse(lines, { newline: "\r\n", escapeFormulae: FORMULA_START })}\r\n`;

/**
 * The entries as CSV, UTF-8 with a byte-order mark for Excel, CRLF line ends, as the Verify export: a page of the
 * log at a time, so a long record is never held whole.
 */
async function* entriesCsv(pages: AsyncIterable<readonly LogEntry[]>): AsyncGenerator<string> {
  yield `\uFEFF${csvLines([CSV_COLUMNS])}`;
  for await (const entries of pages) yield csvLines(entries.map((e) => CSV_COLUMNS.map((column) => e[column] ?? "")));
}

export interface ChecksRoutesOptions {
  log: ChecksLog;
  /** Reads the licenses a page reports it showed, as the service serves them now. */
  reader: ServiceReader;
  now?: () => Date;
}

/** The record of checks' same-origin routes, under /api/checks, answered as JSON, CSV or problem+json. */
export function checksRoutes({ log, reader, now = () => new Date() }: ChecksRoutesOptions) {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app: FastifyInstance) => {
    app.addHook("onRequest", refuseOtherSites("Checks can only be recorded from the License Lookup app itself."));
    const read = { preHandler: allow(MAY.read) };

    // Every role: an auditor who opens a license page was shown a verdict too.
    app.post(CHECKS_API, { ...read, bodyLimit: BODY_LIMIT, config: { body: "the rows" } }, async (request, reply) => {
      const parsed = z.safeParse(RecordChecksRequestSchema, request.body);
      if (!parsed.success) {
        return sendProblem(
          reply,
          400,
          `Send {"action": "license page" or "verify", "zone": "America/New_York", "rows": [{"state": "ny", "license": "0012345"}, …]}, a Verify row as the clerk gave it ({"line": 3, "state": "New York", "license": "", "business": "White Horse", "address": ""}): ${z.prettifyError(parsed.error)}`,
        );
      }
      const { action, zone, rows } = parsed.data;
      try {
        const ids = await recordChecks({ log, reader, user: request.user!, action, zone, rows, now });
        return { data: { ids } };
      } catch (error) {
        request.log.error({ err: error }, "checks not recorded");
        return sendProblem(
          reply,
          502,
          `The checks could not be recorded: ${(error as Error).message}. Open the page again to record them.`,
        );
      }
    });

    app.get(CHECKS_API, read, async (request, reply) => {
      const filter = filterOf(request, request.user!);
      if (typeof filter === "string") return sendProblem(reply, 400, filter);
      return { data: await log.list(filter) };
    });

    app.get(`${CHECKS_API}.csv`, read, async (request, reply) => {
      const filter = filterOf(request, request.user!);
      if (typeof filter === "string") return sendProblem(reply, 400, filter);
      const day = now().toISOString().slice(0, 10);
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="checks-${day}.csv"`)
        .send(Readable.from(entriesCsv(log.pages({ ...filter, before: undefined }))));
    });

    // From the last verified entry, not a walk of the whole record per view (see ChecksLog.state).
    app.get(`${CHECKS_API}/chain`, read, async () => ({ data: await log.state() }));

    app.get<{ Params: { id: string } }>(`${CHECKS_API}/:id`, read, async (request, reply) => {
      const user = request.user!;
      const id = /^[1-9]\d{0,15}$/.test(request.params.id) ? Number(request.params.id) : null;
      const entry = id === null ? null : await log.get(id);
      // Another person's entry is as absent to a member as one that does not exist.
      if (!entry || (!audits(user) && entry.user_email !== user.email)) {
        return sendProblem(reply, 404, `There is no entry ${request.params.id} among the checks you may read.`);
      }
      return {
        data: {
          entry,
          record: entry.record_json === null ? null : (JSON.parse(entry.record_json) as License),
          provenance: entry.provenance_json === null ? null : (JSON.parse(entry.provenance_json) as Provenance),
          given: entry.given_json === null ? null : (JSON.parse(entry.given_json) as GivenRow),
        },
      };
    });
  };
}
